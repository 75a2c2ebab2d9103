/// What an APNs answer means to the sweep: SPEC 5's outcome table, one row per reason Apple
/// documents (APNS.md 5 and 6), with what it does to the registration, whether it deletes it,
/// and what the operator should check when it stops an environment. The one home of a reason's
/// meaning: the sweep's rules, the mass-deletion guard, the bounded vocabulary of recorded
/// reasons and the faults' advice all read this table.
public struct APNsReason: Sendable, Equatable {
    /// What an answer does to its registration and to the sweep.
    public enum Meaning: Sendable, Equatable {
        /// 410: the token is gone; deleted, unless registered again after APNs's timestamp.
        case gone
        /// BadDeviceToken, DeviceTokenNotForTopic: deleted, unless the mass-deletion guard holds
        /// it (a wrong host, key or bundle id answers the same for every token).
        case rejected
        /// ExpiredProviderToken: a new provider token, and the push sent again once.
        case renewToken
        /// The same answer for every push to the environment: sending to it stops, as this kind of fault.
        case fault(SweepFault.Kind)
        /// Server trouble or too many pushes to the device: kept, tried again after a back-off.
        case backOff
        /// Any other answer: kept, tried again one interval later.
        case retryNextInterval

        /// Whether the answer asks for the registration to be deleted.
        public var deletes: Bool { self == .gone || self == .rejected }
    }

    public let name: String
    /// The status Apple documents it with.
    public let status: Int
    public let meaning: Meaning

    /// Whether a fault for it may concern one kind of push rather than the whole environment
    /// (SPEC 5, "Faults are scoped"): a topic fault, where the kind's topic is its own (`<bundle
    /// id>.push-type.widgets`: a widget extension without the push capability), stops that kind
    /// alone (`SweepFault.raised`); every other fault is the same for every push of the
    /// environment.
    public var faultScopesKind: Bool { Self.kindScoped.contains(name) }

    /// The reasons that `faultScopesKind`: the topic's.
    public static let kindScoped: Set<String> = ["BadTopic", "TopicDisallowed", "MissingTopic"]

    /// Every reason Apple documents, plus `BadEnvironmentKeyInToken`, the spelling seen on the
    /// wire for the documented `BadEnvironmentKeyIdInToken`.
    public static let documented: [String: APNsReason] = {
        let configuration = Meaning.fault(.configuration)
        let provider = Meaning.fault(.provider)
        let rows: [(String, Int, Meaning)] = [
            ("BadCollapseId", 400, .retryNextInterval), ("BadDeviceToken", 400, .rejected),
            ("BadExpirationDate", 400, provider), ("BadMessageId", 400, provider), ("BadPriority", 400, provider),
            ("BadTopic", 400, configuration), ("DeviceTokenNotForTopic", 400, .rejected),
            ("DuplicateHeaders", 400, .retryNextInterval), ("IdleTimeout", 400, .retryNextInterval),
            ("InvalidPushType", 400, provider), ("MissingDeviceToken", 400, .retryNextInterval),
            ("MissingTopic", 400, configuration), ("PayloadEmpty", 400, provider), ("TopicDisallowed", 400, configuration),
            ("BadCertificate", 403, .retryNextInterval), ("BadCertificateEnvironment", 403, .retryNextInterval),
            ("ExpiredProviderToken", 403, .renewToken), ("Forbidden", 403, configuration),
            ("InvalidProviderToken", 403, configuration), ("MissingProviderToken", 403, configuration),
            ("UnrelatedKeyIdInToken", 403, provider), ("BadEnvironmentKeyIdInToken", 403, configuration),
            ("BadEnvironmentKeyInToken", 403, configuration),
            ("BadPath", 404, provider), ("MethodNotAllowed", 405, provider),
            ("ExpiredToken", 410, .gone), ("Unregistered", 410, .gone), ("PayloadTooLarge", 413, provider),
            ("TooManyProviderTokenUpdates", 429, provider), ("TooManyRequests", 429, .backOff),
            ("InternalServerError", 500, .backOff), ("ServiceUnavailable", 503, .backOff), ("Shutdown", 503, .backOff),
        ]
        return Dictionary(uniqueKeysWithValues: rows.map { ($0.0, APNsReason(name: $0.0, status: $0.1, meaning: $0.2)) })
    }()

    /// What an answer of `status` with `reason` means: the documented reason's row, else by the
    /// status alone (an undocumented reason counts for nothing).
    public static func meaning(status: Int, reason: String?) -> Meaning {
        // A 410 says the token is gone whatever its reason.
        if status == 410 { return .gone }
        if let reason, let row = documented[reason] { return row.meaning }
        switch status {
        case 410: return .gone
        case 405: return .fault(.provider)
        case 429, 500...599: return .backOff
        default: return .retryNextInterval
        }
    }

    /// The reason recorded for an answer, from a bounded vocabulary (SPEC 5, "Failure reasons"):
    /// APNs's `reason` when Apple documents it, else `HTTP<status>`. What a server says cannot
    /// grow the run history or the metric labels.
    public static func recorded(status: Int, reason: String?) -> String {
        reason.flatMap { documented[$0] == nil ? nil : $0 } ?? "HTTP\(status)"
    }

    /// The pseudo-reason of a server that answered without HTTP/2: it is not APNs.
    public static let notHTTP2 = "NotHTTP2"

    /// What the operator should check when a fault of `kind` for `reason` stops an environment of
    /// `app`: the settings it names are the app's own (`APNS_BUNDLE_ID_OTHER`, SPEC 6), which fall
    /// back to the default app's.
    public static func advice(_ kind: SweepFault.Kind, reason: String, app: AppName = .defaultApp) -> String {
        let setting = app.settingName
        return switch (kind, reason) {
        case (.configuration, "BadTopic"), (.configuration, "TopicDisallowed"), (.configuration, "MissingTopic"):
            "check \(setting("APNS_BUNDLE_ID")) (a widgets push goes to <bundle id>.push-type.widgets, which the widget extension's push capability enables)"
        case (.configuration, notHTTP2):
            "the server there does not speak HTTP/2, so it is not APNs; check APNS_HOST"
        case (.configuration, _):
            "check \(setting("APNS_KEY_ID")), \(setting("APNS_TEAM_ID")), the key, and which environments the key may send to (\(setting("APNS_ENVIRONMENTS")))"
        case (.provider, "TooManyProviderTokenUpdates"):
            "APNs refuses provider token updates this often; the cached token is kept"
        case (.provider, "ExpiredProviderToken"):
            "a freshly signed provider token was refused as expired; check the system clock"
        case (.provider, _):
            "APNs refuses every push of this form; the request this build sends needs fixing"
        case (.guarded, _):
            "wrong APNs host, key or bundle id for this environment?"
        case (.unreachable, _):
            "no connection to APNs; check the network, DNS, APNS_HOST and APNS_CA_FILE"
        }
    }
}

extension SweepFault {
    /// The fault of `kind` for `reason` in `app`'s `environment`, with the table's advice,
    /// revealed by a push of `pushKind`: scoped to that kind where the reason is about the topic and the kind's
    /// topic is its own (a widgets push's `.push-type.widgets`); else to the whole environment -
    /// a wake's topic is the bundle id itself, which every kind's topic holds, so a wrong one is
    /// wrong for every kind.
    public static func raised(
        _ kind: Kind, reason: String, in environment: APNsEnvironment, by pushKind: PushKind = .wake,
        of app: AppName = .defaultApp
    ) -> SweepFault {
        let scoped = APNsReason.kindScoped.contains(reason) && !pushKind.topicSuffix.isEmpty ? pushKind : nil
        return SweepFault(
            environment: environment, pushKind: scoped, kind: kind, reason: reason,
            advice: APNsReason.advice(kind, reason: reason, app: app), app: app)
    }
}
