/// The kind of Live Activity, which sets how often the backend wakes the app (SPEC 3:
/// `charging` every 5 minutes, `debug` every minute). The backend answers a type it does not
/// serve with a 400 that lists the ones it does (``WakeClientError/badRequest(reason:supported:)``).
public struct WakeActivityType: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }

    /// The car is charging: woken every 5 minutes unless the app asks for longer.
    public static let charging = WakeActivityType(rawValue: "charging")
    /// For development: woken every minute.
    public static let debug = WakeActivityType(rawValue: "debug")

    public var description: String { rawValue }
}
