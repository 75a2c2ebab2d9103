/// The `reason` strings Apple documents for APNs's error answers (APNS.md section 5), plus
/// `BadEnvironmentKeyInToken`, the spelling seen on the wire for the documented
/// `BadEnvironmentKeyIdInToken`. A reason is recorded only if it is one of these, so what a
/// server says cannot grow the run history or the metric labels.
enum APNsReasons {
    static let documented: Set<String> = [
        // 400
        "BadCollapseId", "BadDeviceToken", "BadExpirationDate", "BadMessageId", "BadPriority", "BadTopic",
        "DeviceTokenNotForTopic", "DuplicateHeaders", "IdleTimeout", "InvalidPushType", "MissingDeviceToken",
        "MissingTopic", "PayloadEmpty", "TopicDisallowed",
        // 403
        "BadCertificate", "BadCertificateEnvironment", "ExpiredProviderToken", "Forbidden", "InvalidProviderToken",
        "MissingProviderToken", "UnrelatedKeyIdInToken", "BadEnvironmentKeyIdInToken", "BadEnvironmentKeyInToken",
        // 404, 405, 410, 413, 429, 500, 503
        "BadPath", "MethodNotAllowed", "ExpiredToken", "Unregistered", "PayloadTooLarge", "TooManyProviderTokenUpdates",
        "TooManyRequests", "InternalServerError", "ServiceUnavailable", "Shutdown",
    ]
}
