import Foundation

/// What the backend knows of this device's registration (`POST <prefix>/wakeup/diagnostics`),
/// for a "why is my activity stale?" screen: ``hints`` say what to do; the rest is the story.
/// It holds no token. Values a newer backend adds are ignored; one it leaves out is nil.
public struct WakeDiagnostics: Sendable, Hashable {
    /// Whether the device is registered (in the app the client's path prefix names). When not,
    /// only ``hints`` is filled (``WakeHint/Code/notRegistered``).
    public let registered: Bool
    /// `charging`, `debug`, ...
    public let activityType: String?
    /// `production` or `sandbox`.
    public let environment: String?
    /// The seconds between wakes that apply now (the cadence's).
    public let interval: Int?
    /// Why the interval is what it is.
    public let cadence: WakeCadence?
    /// Seconds until the next wake push; nil while none will go (paused).
    public let nextPushIn: Int?
    /// Seconds until the registration expires (the app registers again before, if the activity goes on).
    public let expiresIn: Int?
    /// The last wake pushes, newest first (at most 20).
    public let attempts: [WakeAttempt]
    /// The widgets target, nil when the registration has none.
    public let widgets: Widgets?
    /// What to tell the person, most useful first.
    public let hints: [WakeHint]

    /// The registration's widgets target.
    public struct Widgets: Sendable, Hashable {
        /// The seconds between widget reload pushes.
        public let interval: Int?
        /// Seconds until the next one.
        public let nextPushIn: Int?
        /// Its last pushes, newest first (never acknowledged: a widgets push wakes no app code).
        public let attempts: [WakeAttempt]
    }

    /// The answer's JSON; ``WakeClientError/invalidAnswer`` when it is not the route's.
    init(json data: Data) throws(WakeClientError) {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let registered = object["registered"] as? Bool
        else { throw .invalidAnswer }
        self.registered = registered
        activityType = Self.text(object["activityType"])
        environment = Self.text(object["environment"])
        interval = WakeClient.wholeNumber(object["interval"])
        cadence = Self.text(object["cadence"]).map(WakeCadence.init(rawValue:))
        nextPushIn = WakeClient.wholeNumber(object["nextPushIn"])
        expiresIn = WakeClient.wholeNumber(object["expiresIn"])
        attempts = Self.attempts(object["attempts"])
        widgets = (object["widgets"] as? [String: Any]).map { widgets in
            Widgets(
                interval: WakeClient.wholeNumber(widgets["interval"]), nextPushIn: WakeClient.wholeNumber(widgets["nextPushIn"]),
                attempts: Self.attempts(widgets["attempts"]))
        }
        hints = ((object["hints"] as? [Any]) ?? []).compactMap { item in
            guard let hint = item as? [String: Any], let code = Self.text(hint["code"]) else { return nil }
            return WakeHint(code: WakeHint.Code(rawValue: code), text: Self.text(hint["text"]) ?? "")
        }
    }

    private static func attempts(_ value: Any?) -> [WakeAttempt] {
        ((value as? [Any]) ?? []).compactMap { ($0 as? [String: Any]).map(WakeAttempt.init(json:)) }
    }

    /// A string from the answer, cleaned for showing (`OutsideText`).
    static func text(_ value: Any?) -> String? { (value as? String).map(OutsideText.cleaned) }
}

/// Why the wake interval is what it is.
public enum WakeCadence: Sendable, Hashable, RawRepresentable {
    /// The interval the app asked for (or its activity type's).
    case base
    /// Longer: the data did not change for several wakes.
    case stretched
    /// Longer: Low Power Mode is on.
    case lowPower
    /// No wakes: Background App Refresh is off, or no activity runs.
    case paused
    /// A word of a newer backend.
    case other(String)

    public init(rawValue: String) {
        switch rawValue {
        case "base": self = .base
        case "stretched": self = .stretched
        case "lowPower": self = .lowPower
        case "paused": self = .paused
        default: self = .other(rawValue)
        }
    }

    public var rawValue: String {
        switch self {
        case .base: "base"
        case .stretched: "stretched"
        case .lowPower: "lowPower"
        case .paused: "paused"
        case .other(let word): word
        }
    }
}

/// One push the backend sent, as the diagnostics show it.
public struct WakeAttempt: Sendable, Hashable {
    /// When APNs answered it.
    public let at: Date?
    /// APNs's HTTP status (200: accepted for delivery); nil when no answer came (a connection fault).
    public let status: Int?
    /// APNs's reason, or the connection fault's name; nil on a 200.
    public let reason: String?
    /// Seconds from APNs's acceptance to the app's ack; nil when the app did not acknowledge it.
    public let ackedAfter: Double?

    public init(at: Date?, status: Int?, reason: String?, ackedAfter: Double?) {
        self.at = at
        self.status = status
        self.reason = reason
        self.ackedAfter = ackedAfter
    }

    init(json object: [String: Any]) {
        at = WakeDiagnostics.text(object["at"]).flatMap { ISO8601DateFormatter().date(from: $0) }
        status = WakeClient.wholeNumber(object["status"])
        reason = WakeDiagnostics.text(object["reason"])
        ackedAfter = (object["ackedAfter"] as? Double) ?? (object["ackedAfter"] as? Int).map(Double.init)
    }
}
