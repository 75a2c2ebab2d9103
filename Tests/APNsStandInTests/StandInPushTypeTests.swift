import APNsStandIn
import FastCGIWire
import Testing

@testable import LiveActivityDomain

/// Each push type the project sends, as Apple documents it (APNS.md sections 2, 3 and 8),
/// written out here rather than read from `PushKind`: the sender's push of every kind must pass
/// the stand-in, and each wrong header or payload of each type must be refused with APNs' answer.
extension StandInResponderTests {
    /// One push Apple refuses (400, `reason`): a type's correct request with one header or the
    /// body made wrong.
    struct WrongPush: Sendable, CustomTestStringConvertible {
        let pushType: String
        let wrong: String
        var headers: [String: String?] = [:]
        var body: String? = nil
        let reason: String

        var testDescription: String { "\(pushType): \(wrong)" }
    }

    /// Apple's correct request of each type: its topic's suffix, headers and body.
    static let documented: [String: (topicSuffix: String, headers: [String: String?], body: String)] = [
        "background": ("", ["apns-priority": "5"], #"{"aps":{"content-available":1},"liveActivityWakeup":true}"#),
        "widgets": (".push-type.widgets", ["apns-priority": nil, "apns-expiration": nil], #"{"aps":{"content-changed":true}}"#),
    ]

    static let wrongPushes: [WrongPush] = [
        WrongPush(pushType: "background", wrong: "priority 10", headers: ["apns-priority": "10"], reason: "BadPriority"),
        WrongPush(pushType: "background", wrong: "priority 7", headers: ["apns-priority": "7"], reason: "BadPriority"),
        WrongPush(
            pushType: "background", wrong: "the widgets topic", headers: ["apns-topic": "<bundle id>.push-type.widgets"],
            reason: "DeviceTokenNotForTopic"),
        WrongPush(
            pushType: "background", wrong: "another topic", headers: ["apns-topic": "<bundle id>.other"],
            reason: "TopicDisallowed"),
        WrongPush(
            pushType: "background", wrong: "an alert in aps", body: #"{"aps":{"content-available":1,"alert":"x"}}"#,
            reason: "BadPayload"),
        WrongPush(
            pushType: "background", wrong: "the widgets payload", body: #"{"aps":{"content-changed":true}}"#,
            reason: "BadPayload"),
        WrongPush(
            pushType: "widgets", wrong: "the plain topic", headers: ["apns-topic": "<bundle id>"],
            reason: "DeviceTokenNotForTopic"),
        WrongPush(
            pushType: "widgets", wrong: "the background type", headers: ["apns-push-type": "background"],
            reason: "DeviceTokenNotForTopic"),
        WrongPush(pushType: "widgets", wrong: "no type", headers: ["apns-push-type": nil], reason: "DeviceTokenNotForTopic"),
        WrongPush(pushType: "widgets", wrong: "priority 7", headers: ["apns-priority": "7"], reason: "BadPriority"),
        WrongPush(
            pushType: "widgets", wrong: "the background payload", body: #"{"aps":{"content-available":1}}"#,
            reason: "BadPayload"),
        WrongPush(
            pushType: "widgets", wrong: "an alert in aps", body: #"{"aps":{"content-changed":true,"alert":"x"}}"#,
            reason: "BadPayload"),
    ]

    /// Apple's correct request of `pushType`, with `changes` over its headers (`<bundle id>` in a topic
    /// stands for the bundle id).
    func documentedPush(_ pushType: String, changes: [String: String?] = [:], body: String? = nil) throws -> HTTPResponse {
        let request = try #require(Self.documented[pushType])
        var headers = request.headers
        headers["apns-push-type"] = pushType
        headers["apns-topic"] = key.bundleID + request.topicSuffix
        for (name, value) in changes {
            headers[name] = value.map { $0.replacingOccurrences(of: "<bundle id>", with: key.bundleID) }
        }
        return try push(headers: headers, body: body ?? request.body)
    }

    @Test(arguments: ["background", "widgets"])
    func applesDocumentedPushOfEachTypeIsAccepted(pushType: String) throws {
        #expect(try documentedPush(pushType).status == 200)
    }

    @Test(arguments: wrongPushes)
    func aPushWithAWrongHeaderOrPayloadIsRefused(_ wrong: WrongPush) throws {
        expect(try documentedPush(wrong.pushType, changes: wrong.headers, body: wrong.body), 400, wrong.reason)
    }

    /// The sender's push of each kind, built from its `PushKind` as the sender builds it, passes
    /// the stand-in's table of Apple's rules: a kind whose value differs from Apple's is refused.
    @Test(arguments: PushKind.all)
    func eachKindsPushAsTheSenderBuildsItIsAccepted(kind: PushKind) throws {
        var headers: [String: String?] = [
            "apns-push-type": kind.pushType, "apns-topic": kind.topic(forBundleID: key.bundleID),
            "apns-priority": kind.priority.map(String.init), "apns-expiration": nil,
        ]
        if kind.expires { headers["apns-expiration"] = "\(nowSeconds + 300)" }
        let response = try push(headers: headers, body: kind.payload)
        #expect(response.status == 200, "\(kind): \(reason(response) ?? "")")
    }
}
