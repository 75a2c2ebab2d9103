/// Where a page of due targets ends: the next page starts after it. The due order is the next
/// push's time, then the registration's token, then the kind (`TargetKey`'s order).
public struct DuePosition: Sendable, Equatable {
    public var nextPushAt: Int64
    public var key: TargetKey

    public init(nextPushAt: Int64, key: TargetKey) {
        self.nextPushAt = nextPushAt
        self.key = key
    }
}

extension DuePosition: Comparable {
    public static func < (left: DuePosition, right: DuePosition) -> Bool {
        left.nextPushAt != right.nextPushAt ? left.nextPushAt < right.nextPushAt : left.key < right.key
    }
}
