/// One device's story for `liveactivity-sweep history` (SPEC 7): its registration and, per push
/// target, its last attempts, newest first. Found by the whole token or a prefix of it - the
/// device token's, or a widget extension's (`DeviceHistory.lookup`).
public struct DeviceHistory: Sendable, Equatable {
    /// The registration with its targets, each with its attempts.
    public var registration: Registration

    public init(registration: Registration) {
        self.registration = registration
    }

    /// The wake target's attempts, newest first.
    public var attempts: [PushAttempt] { registration.wake.attempts }

    /// The fewest hex digits a prefix may have: fewer would match too many devices to be useful.
    public static let shortestPrefix = 8

    /// What a lookup found.
    public enum Lookup: Sendable, Equatable {
        case found(DeviceHistory)
        /// More than one registration starts with the prefix: how many.
        case ambiguous(count: Int)
        /// One token, registered for several apps (SPEC 6): which; the operator names one.
        case severalApps([AppName])
        case notRegistered
    }

    /// A token or prefix as the operator types it: hex digits (either case), at least
    /// `shortestPrefix` and at most a token's length; nil when it is not one.
    public static func prefix(_ text: String) -> String? {
        let lower = text.lowercased()
        guard lower.count >= shortestPrefix, lower.count <= PushToken.maximumLength,
            lower.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        return lower
    }
}
