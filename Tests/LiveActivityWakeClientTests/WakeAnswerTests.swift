import Foundation
import Testing

@testable import LiveActivityWakeClient

/// Every answer of SPEC 3 read as the client reads it: a 200's intervals, a typed error otherwise.
@Suite struct WakeAnswerTests {
    func read(_ status: Int, _ body: String) -> Result<SuccessAnswer, WakeClientError> {
        Result { () throws(WakeClientError) in try WakeClient.read(status: status, Data(body.utf8)) }
    }

    @Test func aSuccessCarriesTheIntervalsItSays() throws {
        let plain = try read(200, "{\"success\":true}").get()
        #expect(plain.interval == nil && plain.widgetInterval == nil)
        let asked = try read(200, "{\"success\":true,\"interval\":900}").get()
        #expect(asked.interval == 900 && asked.widgetInterval == nil)
        let both = try read(200, "{\"success\":true,\"interval\":900.0,\"widgetInterval\":3600}").get()
        #expect(both.interval == 900 && both.widgetInterval == 3600)
        #expect(plain.paused == nil && both.paused == nil)
        let paused = try read(200, "{\"success\":true,\"paused\":\"backgroundRefresh\"}").get()
        #expect(paused.paused == "backgroundRefresh" && paused.interval == nil)
    }

    @Test(arguments: ["", "not json", "[]", "{\"success\":false}", "{}"])
    func aSuccessThatIsNotTheAPIsIsAnInvalidAnswer(_ body: String) {
        #expect(throws: WakeClientError.invalidAnswer) { try read(200, body).get() }
    }

    @Test func a400CarriesTheReasonAndWhatIsSupported() {
        #expect(
            throws: WakeClientError.badRequest(reason: "Unsupported activityType: x", supported: ["charging", "debug"])
        ) { try read(400, "{\"error\":\"Unsupported activityType: x\",\"supported\":[\"charging\",\"debug\"]}").get() }
        #expect(throws: WakeClientError.badRequest(reason: "Bad request", supported: nil)) { try read(400, "<html>").get() }
    }

    @Test func everyOtherStatusHasItsCase() {
        let cases: [(Int, WakeClientError)] = [
            (404, .notFound), (405, .methodNotAllowed), (413, .payloadTooLarge), (415, .unsupportedMediaType),
            (500, .serverError(status: 500, reason: "Internal error")),
            (502, .serverError(status: 502, reason: "Internal error")),
            (403, .unexpectedStatus(403, reason: "Internal error")), (302, .unexpectedStatus(302, reason: "Internal error")),
        ]
        for (status, expected) in cases {
            #expect(throws: expected) { try read(status, "{\"error\":\"Internal error\"}").get() }
        }
    }

    @Test func aReasonFromOutsideNeverShowsATokenWhole() {
        let token = String(repeating: "ab12", count: 16)
        let error = WakeClientError.badRequest(reason: OutsideText.cleaned("token \(token)\nrefused"), supported: nil)
        #expect(!error.description.contains(token.prefix(9)))
        #expect(error.description.contains("token ab12ab12… refused"))
        #expect(OutsideText.cleaned("charging, debug, 1234") == "charging, debug, 1234")
    }

    @Test func theEncodedBodiesAreSPEC3s() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let full = RegisterBody(
            pushToken: "ab", activityType: "charging", environment: "sandbox", interval: 900, widgetPushToken: "cd",
            widgetInterval: 3600)
        #expect(
            String(decoding: try encoder.encode(full), as: UTF8.self)
                == "{\"activityType\":\"charging\",\"environment\":\"sandbox\",\"interval\":900,\"pushToken\":\"ab\","
                + "\"widgetInterval\":3600,\"widgetPushToken\":\"cd\"}")
        let bare = RegisterBody(
            pushToken: "ab", activityType: "debug", environment: nil, interval: nil, widgetPushToken: nil, widgetInterval: nil)
        #expect(String(decoding: try encoder.encode(bare), as: UTF8.self) == "{\"activityType\":\"debug\",\"pushToken\":\"ab\"}")
        let stated = RegisterBody(
            pushToken: "ab", activityType: "debug", environment: nil, interval: nil, widgetPushToken: nil, widgetInterval: nil,
            activities: 1, backgroundRefresh: "denied", lowPower: false)
        #expect(
            String(decoding: try encoder.encode(stated), as: UTF8.self)
                == "{\"activities\":1,\"activityType\":\"debug\",\"backgroundRefresh\":\"denied\",\"lowPower\":false,"
                + "\"pushToken\":\"ab\"}")
        #expect(String(decoding: try encoder.encode(AckBody(pushToken: "ab")), as: UTF8.self) == "{\"pushToken\":\"ab\"}")
        #expect(
            String(decoding: try encoder.encode(AckBody(pushToken: "ab", activities: 0, changed: false)), as: UTF8.self)
                == "{\"activities\":0,\"changed\":false,\"pushToken\":\"ab\"}")
    }
}
