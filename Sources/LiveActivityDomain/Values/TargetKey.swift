/// Which push target (SPEC 1, 4): the registration it belongs to, named by the device token the
/// app registered, and its kind. A registration owns one wake target and at most one widgets
/// target, so the pair names a target whatever token the target itself is pushed to (a widgets
/// target's is the widget extension's own).
public struct TargetKey: Hashable, Sendable, CustomStringConvertible {
    /// The registration's device token (its wake target's token).
    public var registration: PushToken
    public var kind: PushKind

    public init(registration: PushToken, kind: PushKind) {
        self.registration = registration
        self.kind = kind
    }

    /// The wake target of the registration of `token`.
    public static func wake(_ token: PushToken) -> TargetKey { TargetKey(registration: token, kind: .wake) }

    /// `1a2b3c4d…/widgets`: as a log line may show it (the registration's token by its first 8 characters).
    public var description: String { "\(registration.logPrefix)/\(kind.name)" }
}

extension TargetKey: Comparable {
    /// The order of the due index after the due time: the registration's token, then the kind's name.
    public static func < (left: TargetKey, right: TargetKey) -> Bool {
        (left.registration.hex, left.kind.name) < (right.registration.hex, right.kind.name)
    }
}
