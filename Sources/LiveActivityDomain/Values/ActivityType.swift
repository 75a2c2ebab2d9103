/// The Live Activity kinds the app registers, each with its own push interval (SPEC section 3).
public enum ActivityType: String, CaseIterable, Sendable, Hashable {
    case charging
    case debug

    /// Older app builds send no type.
    public static let `default` = ActivityType.charging

    /// The names the API lists in `supported`.
    public static var supportedNames: [String] { allCases.map(\.rawValue) }
}
