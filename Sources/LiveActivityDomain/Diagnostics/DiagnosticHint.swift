/// One hint of what stands between a device and a fresh Live Activity (SPEC 3,
/// `/wakeup/diagnostics`; SPEC 7, `history`): a stable `code`, for the app to localize or act
/// on, and a short sentence for a person. The one wording of each: the route and `history` both
/// print what `hints(for:...)` (DiagnosticHint+Reading) finds, so they never disagree.
public struct DiagnosticHint: Sendable, Equatable, Hashable {
    /// The codes, in the order hints are listed: what the person can fix first, then why wakes
    /// are spaced out, then what is about to change. The names are part of the API (docs/APP.md
    /// walks them): never rename one; a new one is a new case.
    public enum Code: String, Sendable, CaseIterable, Hashable {
        /// The token has no registration in this app: register again.
        case notRegistered
        /// APNs answered that a target's token is no longer valid: register again with the current one.
        case tokenRejected
        /// The last wakes were answered 200 and none was acknowledged: the phone did not wake.
        case notWaking
        /// The last pushes were held or failed on the server's or Apple's side.
        case serverFault
        /// Background App Refresh is not available: no wakes until it is.
        case paused
        /// The app reported no running activity: no wakes until it registers again.
        case noActivity
        /// Low Power Mode lengthens the interval.
        case lowPower
        /// Unchanged data lengthens the interval.
        case stretched
        /// The registration expires soon.
        case expiringSoon
        /// The app sent a widget token the registration has no widgets target for.
        case noWidgetsTarget
    }

    public var code: Code
    public var text: String

    public init(_ code: Code, _ text: String) {
        self.code = code
        self.text = text
    }
}

// MARK: - The sentences

extension DiagnosticHint {
    public static let notRegistered = DiagnosticHint(
        .notRegistered,
        "This device is not registered for wake-ups: the app should register again while its Live Activity runs.")

    static func tokenRejected(_ kind: PushKind) -> DiagnosticHint {
        let token =
            kind == .wake ? "the device token" : kind == .widgets ? "the widget extension's token" : "its \(kind.name) token"
        return DiagnosticHint(
            .tokenRejected,
            "Apple answered that \(token) is no longer valid: the app should register again with its current token.")
    }

    static func notWaking(_ count: Int) -> DiagnosticHint {
        DiagnosticHint(
            .notWaking,
            "The last \(count) wake-ups were delivered but the phone did not wake: Background App Refresh off, "
                + "Low Power Mode, or the app force-quit - open the app.")
    }

    static let serverFault = DiagnosticHint(
        .serverFault,
        "The last push was held or failed on the server's or Apple's side: nothing to do on the phone; the server tries again.")

    static func paused(_ refresh: BackgroundRefresh?) -> DiagnosticHint {
        DiagnosticHint(
            .paused,
            "Background App Refresh is \(refresh?.rawValue ?? "off") for the app, so wake-ups cannot launch it: "
                + "turn it on in Settings.")
    }

    static let noActivity = DiagnosticHint(
        .noActivity, "The app reported no running Live Activity, so no wake-ups are sent until it registers again.")

    static func lowPower(every interval: Int64) -> DiagnosticHint {
        DiagnosticHint(
            .lowPower, "Low Power Mode is on: wake-ups come less often (every \(span(interval))) until it is off.")
    }

    static func stretched(unchanged: Int, every interval: Int64) -> DiagnosticHint {
        DiagnosticHint(
            .stretched,
            "The data did not change in the last \(unchanged) wake-ups: they come less often (every \(span(interval))) "
                + "until it changes.")
    }

    static func expiringSoon(in remaining: Int64) -> DiagnosticHint {
        DiagnosticHint(
            .expiringSoon,
            "The registration expires in \(span(remaining)): the app should register again if the activity goes on.")
    }

    static let noWidgetsTarget = DiagnosticHint(
        .noWidgetsTarget,
        "The server has no widget target for this widget token: the app should register again with its widgetPushToken.")

    /// `45 s`, `5 min`, `2 h 10 min`, from milliseconds (rounded down; never negative).
    static func span(_ milliseconds: Int64) -> String {
        let seconds = max(0, milliseconds / 1000)
        if seconds < 120 { return "\(seconds) s" }
        if seconds < 7200 { return "\(seconds / 60) min" }
        let minutes = seconds % 3600 / 60
        return "\(seconds / 3600) h" + (minutes == 0 ? "" : " \(minutes) min")
    }
}

extension DiagnosticHint {
    /// `[{"code":"notWaking","text":"…"}, …]`: the one JSON form of hints, the diagnostics' and
    /// `history --json`'s.
    package static func json(_ hints: [DiagnosticHint]) -> String {
        "["
            + hints.map { "{\"code\":\(JSONText.string($0.code.rawValue)),\"text\":\(JSONText.string($0.text))}" }
            .joined(separator: ",") + "]"
    }
}
