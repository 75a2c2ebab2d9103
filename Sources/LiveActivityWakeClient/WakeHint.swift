/// One hint of ``WakeDiagnostics``: why the Live Activity may be stale and what to do, as a
/// stable ``Code`` (show your own localized text for it, or act on it) and the backend's sentence
/// in English (``text``, fine to show as it is).
public struct WakeHint: Sendable, Hashable {
    /// The hint's code; a code this version does not know is ``other(_:)``, never a failure.
    public enum Code: Sendable, Hashable, RawRepresentable {
        /// The device is not registered: register again (while an activity runs).
        case notRegistered
        /// Apple answered that a token is no longer valid: register again with the current token.
        case tokenRejected
        /// The last wakes were delivered but the phone did not wake: Background App Refresh
        /// off, Low Power Mode, or the app force-quit; the user should open the app.
        case notWaking
        /// The last pushes were held or failed on the server's or Apple's side: nothing to do
        /// on the phone.
        case serverFault
        /// Background App Refresh is not available: the user should turn it on.
        case paused
        /// The app reported no running activity: no wakes until it registers again.
        case noActivity
        /// Low Power Mode lengthens the interval.
        case lowPower
        /// The data did not change for several wakes: wakes come less often until it does.
        case stretched
        /// The registration expires soon: register again if the activity goes on.
        case expiringSoon
        /// The registration has no widgets target for the widget token sent: register again
        /// with `widgetPushToken`.
        case noWidgetsTarget
        /// A code of a newer backend.
        case other(String)

        private static let known: [Code] = [
            .notRegistered, .tokenRejected, .notWaking, .serverFault, .paused, .noActivity, .lowPower, .stretched,
            .expiringSoon, .noWidgetsTarget,
        ]

        public init(rawValue: String) {
            self = Self.known.first { $0.rawValue == rawValue } ?? .other(rawValue)
        }

        public var rawValue: String {
            switch self {
            case .notRegistered: "notRegistered"
            case .tokenRejected: "tokenRejected"
            case .notWaking: "notWaking"
            case .serverFault: "serverFault"
            case .paused: "paused"
            case .noActivity: "noActivity"
            case .lowPower: "lowPower"
            case .stretched: "stretched"
            case .expiringSoon: "expiringSoon"
            case .noWidgetsTarget: "noWidgetsTarget"
            case .other(let code): code
            }
        }
    }

    public let code: Code
    /// The backend's sentence for a person (English).
    public let text: String

    public init(code: Code, text: String) {
        self.code = code
        self.text = text
    }
}
