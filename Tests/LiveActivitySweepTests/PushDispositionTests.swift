import APNsHTTP2
import TestSupport
import Testing

@testable import LiveActivityCore
@testable import LiveActivitySweep

/// SPEC section 5 step 6, each row of the outcome table.
@Suite struct PushDispositionTests {
    @Test func twoHundredIsDelivered() {
        #expect(PushDisposition(.status(200)) == .delivered)
    }

    @Test(arguments: ["Unregistered", "ExpiredToken"])
    func fourTenDeletesWithTheTimestamp(reason: String) {
        #expect(PushDisposition(.status(410, reason, timestamp: 1234)) == .unregistered(reason: reason, timestamp: 1234))
    }

    @Test(arguments: ["BadDeviceToken", "DeviceTokenNotForTopic"])
    func badDeviceTokensAreDeletedSubjectToTheGuard(reason: String) {
        #expect(PushDisposition(.status(400, reason)) == .badDeviceToken(reason: reason))
    }

    @Test func anExpiredProviderTokenIsRenewed() {
        #expect(PushDisposition(.status(403, "ExpiredProviderToken")) == .expiredProviderToken)
    }

    @Test(arguments: [
        (403, "InvalidProviderToken"), (403, "MissingProviderToken"), (403, "BadEnvironmentKeyIdInToken"),
        (403, "BadEnvironmentKeyInToken"), (403, "Forbidden"), (400, "BadTopic"), (400, "TopicDisallowed"),
        (400, "MissingTopic"),
    ])
    func configurationFaultsStopTheSweep(status: Int, reason: String) {
        #expect(PushDisposition(.status(status, reason)) == .configurationFault(reason: reason))
    }

    @Test(arguments: [
        (429, "TooManyRequests"), (429, "TooManyProviderTokenUpdates"), (500, "InternalServerError"), (503, "ServiceUnavailable"),
        (503, "Shutdown"),
    ])
    func serverTroubleIsRetriedLater(status: Int, reason: String) {
        #expect(PushDisposition(.status(status, reason)) == .retryLater(reason: reason))
    }

    @Test func transportFailuresAreRetriedLater() {
        #expect(PushDisposition(.failed(.operationTimedOut)) == .retryLater(reason: "Timeout"))
    }

    @Test(arguments: [
        (400, "BadExpirationDate"), (400, "BadPriority"), (413, "PayloadTooLarge"), (405, "MethodNotAllowed"), (404, "BadPath"),
    ])
    func otherClientErrorsAreKeptAndRecorded(status: Int, reason: String) {
        #expect(PushDisposition(.status(status, reason)) == .rejected(reason: reason))
    }

    @Test func aMissingReasonIsNamedByStatus() {
        #expect(PushDisposition(.status(502)) == .retryLater(reason: "HTTP502"))
    }
}
