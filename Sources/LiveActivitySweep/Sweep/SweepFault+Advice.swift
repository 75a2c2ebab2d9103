import LiveActivityDomain

/// The faults `OutcomeRules` and the guard raise, each with what the operator should check.
extension SweepFault {
    /// Reasons that say our key, team, topic or key restriction is wrong (SPEC 5's table).
    static let configurationReasons: Set<String> = [
        "InvalidProviderToken", "MissingProviderToken", "BadEnvironmentKeyIdInToken", "BadEnvironmentKeyInToken",
        "Forbidden", "BadTopic", "TopicDisallowed", "MissingTopic",
    ]
    /// Answers that are the same for every push: provider-wide (SPEC 5's table).
    static let providerReasons: Set<String> = [
        "TooManyProviderTokenUpdates", "UnrelatedKeyIdInToken", "BadPath", "BadPriority", "BadExpirationDate",
        "InvalidPushType", "BadMessageId", "PayloadTooLarge", "PayloadEmpty", "MethodNotAllowed",
    ]

    /// The fault of `kind` for `reason` in `environment`.
    static func raised(_ kind: Kind, reason: String, in environment: APNsEnvironment) -> SweepFault {
        SweepFault(environment: environment, kind: kind, reason: reason, advice: advice(kind, reason))
    }

    private static func advice(_ kind: Kind, _ reason: String) -> String {
        switch (kind, reason) {
        case (.configuration, "BadTopic"), (.configuration, "TopicDisallowed"), (.configuration, "MissingTopic"):
            "check APNS_BUNDLE_ID"
        case (.configuration, "NotHTTP2"):
            "the server there does not speak HTTP/2, so it is not APNs; check APNS_HOST"
        case (.configuration, _):
            "check APNS_KEY_ID, APNS_TEAM_ID, the key, and which environments the key may send to (APNS_ENVIRONMENTS)"
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
