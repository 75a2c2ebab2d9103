/// The Live Activity kinds the app registers, each with its own push interval (SPEC section 3).
public enum ActivityType: String, CaseIterable, Sendable, Hashable {
    case charging
    case debug

    /// Older app builds send no type.
    public static let `default` = ActivityType.charging

    /// The names the API lists in `supported`.
    public static var supportedNames: [String] { allCases.map(\.rawValue) }

    /// The push interval of the type when the operator sets none (`LIVEACTIVITY_INTERVAL_<TYPE>`):
    /// the one home of SPEC 3's "charging every 5 minutes, debug every minute".
    public var defaultIntervalSeconds: Int {
        switch self {
        case .charging: 300
        case .debug: 60
        }
    }
}
