/// Why a text is not a push token (SPEC section 3). The description names the field as the app
/// sent it, so the API can answer with it unchanged.
public enum PushTokenError: Error, Equatable, Sendable, CustomStringConvertible {
    case tooShort
    case tooLong
    case notHex
    case oddLength

    public var description: String { description(field: "pushToken") }

    /// The same, naming `field` (`widgetPushToken` is checked by the same rules).
    public func description(field: String) -> String {
        switch self {
        case .tooShort: "\(field) is too short (at least \(PushToken.minimumLength) hex characters)"
        case .tooLong: "\(field) is too long (at most \(PushToken.maximumLength) hex characters)"
        case .notHex: "\(field) must contain hex digits only"
        case .oddLength: "\(field) must have an even number of hex digits"
        }
    }
}
