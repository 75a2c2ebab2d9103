/// Where a page of due rows ends: the next page starts after it.
public struct DuePosition: Sendable, Equatable {
    public var nextPushAt: Int64
    public var token: PushToken

    public init(nextPushAt: Int64, token: PushToken) {
        self.nextPushAt = nextPushAt
        self.token = token
    }
}
