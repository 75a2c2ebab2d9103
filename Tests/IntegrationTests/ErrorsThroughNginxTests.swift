import Foundation
import LiveActivityCore
import TestSupport
import Testing

/// One row of SPEC section 3's error table, sent through nginx.
struct ErrorCase: Sendable, CustomTestStringConvertible {
    var name: String
    var method = "POST"
    var path = "/wakeup"
    var body: String?
    var contentType: String? = "application/json"
    var status: Int
    var error: String
    var supported: [String]?
    var allow: String?

    var testDescription: String { name }
}

let token = testToken(100)

let errorCases: [ErrorCase] = [
    ErrorCase(name: "body is not JSON", body: "pushToken=\(token)", status: 400, error: "Request body is not valid JSON"),
    ErrorCase(name: "body is not an object", body: "[\"\(token)\"]", status: 400, error: "Request body must be a JSON object"),
    ErrorCase(name: "body is empty", body: "", status: 400, error: "Request body must be a JSON object"),
    ErrorCase(name: "pushToken is a number", body: "{\"pushToken\":12345}", status: 400, error: "pushToken must be a string"),
    ErrorCase(
        name: "activityType is a number", body: "{\"pushToken\":\"\(token)\",\"activityType\":1}", status: 400,
        error: "activityType must be a string"),
    ErrorCase(
        name: "environment is an object", body: "{\"pushToken\":\"\(token)\",\"environment\":{}}", status: 400,
        error: "environment must be a string"),
    ErrorCase(name: "pushToken is missing", body: "{\"activityType\":\"charging\"}", status: 400, error: "pushToken is required"),
    ErrorCase(
        name: "pushToken is too short", body: registerBody(String(token.prefix(62))), status: 400,
        error: "pushToken is too short (at least 64 hex characters)"),
    ErrorCase(
        name: "pushToken is too long", body: registerBody(testToken(101, length: 202)), status: 400,
        error: "pushToken is too long (at most 200 hex characters)"),
    ErrorCase(
        name: "pushToken has odd length", body: registerBody(token + "a"), status: 400,
        error: "pushToken must have an even number of hex digits"),
    ErrorCase(
        name: "pushToken is not hex", body: registerBody(String(token.dropLast(2)) + "zz"), status: 400,
        error: "pushToken must contain hex digits only"),
    ErrorCase(
        name: "activityType is unsupported", body: registerBody(token, type: "parking"), status: 400,
        error: "Unsupported activityType: parking", supported: ["charging", "debug"]),
    ErrorCase(
        name: "environment is unsupported", body: registerBody(token, environment: "staging"), status: 400,
        error: "Unsupported environment: staging", supported: ["production", "sandbox"]),
    ErrorCase(
        name: "unregister without a token", path: "/wakeup/unregister", body: "{}", status: 400,
        error: "pushToken is required"),
    ErrorCase(
        name: "unregister with a short token", path: "/dev/wakeup/unregister", body: unregisterBody("abcd"), status: 400,
        error: "pushToken is too short (at least 64 hex characters)"),
    ErrorCase(name: "unknown path", path: "/wakeup/other", body: registerBody(token), status: 404, error: "Not found"),
    ErrorCase(name: "unknown prefix", path: "/test/wakeup", body: registerBody(token), status: 404, error: "Not found"),
    ErrorCase(name: "health under a prefix", method: "GET", path: "/dev/wakeup/health", status: 404, error: "Not found"),
    ErrorCase(
        name: "path with a suffix", path: "/wakeup/unregister/x", body: registerBody(token), status: 404, error: "Not found"),
    ErrorCase(
        name: "GET on register", method: "GET", path: "/wakeup", status: 405, error: "Method not allowed; use POST",
        allow: "POST"),
    ErrorCase(
        name: "PUT on unregister", method: "PUT", path: "/wakeup/unregister", body: unregisterBody(token), status: 405,
        error: "Method not allowed; use POST", allow: "POST"),
    ErrorCase(
        name: "body over 4096 bytes",
        body: "{\"pushToken\":\"\(token)\",\"pad\":\"\(String(repeating: "x", count: 4096))\"}", status: 413,
        error: "Request body is larger than 4096 bytes"),
    ErrorCase(
        name: "Content-Type is not JSON", body: registerBody(token), contentType: "text/plain", status: 415,
        error: "Content-Type must be application/json"),
    ErrorCase(
        name: "Content-Type is form data", body: "pushToken=\(token)", contentType: "application/x-www-form-urlencoded",
        status: 415, error: "Content-Type must be application/json"),
]

@Suite("Errors through nginx")
struct ErrorsThroughNginxTests {
    @Test(arguments: errorCases)
    func aBadRequestIsAnsweredWithItsStatusAndChangesNothing(_ row: ErrorCase) throws {
        let stack = try LiveStack()
        #expect(try stack.request("POST", "/wakeup", body: registerBody(testToken(7))).status == 200)
        let before = try snapshot(of: stack)

        let result = try stack.request(row.method, row.path, body: row.body, contentType: row.contentType)

        #expect(result.status == row.status)
        let object = try #require(jsonObject(result), "not a JSON object: \(result.text)")
        #expect(object["error"] as? String == row.error)
        #expect(object["supported"] as? [String] == row.supported)
        #expect(result.header("Allow") == row.allow)
        #expect(result.header("Content-Type") == "application/json")
        #expect(result.header("Cache-Control") == "no-store")
        #expect(result.header("Access-Control-Allow-Origin") == "*")
        #expect(try snapshot(of: stack) == before)
    }

    @Test func aFullTableRefusesNewTokensWith503AndEvictsNothing() throws {
        let stack = try LiveStack(with(["LIVEACTIVITY_MAX_REGISTRATIONS": "2"]))
        #expect(try stack.request("POST", "/wakeup", body: registerBody(testToken(110))).status == 200)
        #expect(try stack.request("POST", "/wakeup", body: registerBody(testToken(111))).status == 200)
        let before = try snapshot(of: stack)

        let refused = try stack.request("POST", "/wakeup", body: registerBody(testToken(112)))
        #expect(refused.status == 503)
        #expect(jsonObject(refused)?["error"] as? String == "Registration capacity reached; try again later")
        #expect(refused.header("Retry-After") == nil, "the responder's answer, not nginx's")
        #expect(try snapshot(of: stack) == before)
        #expect(try storedRegistration(testToken(112), in: stack) == nil)

        // A known token may still refresh, and a freed slot takes a new one.
        #expect(try stack.request("POST", "/wakeup", body: registerBody(testToken(110), type: "debug")).status == 200)
        #expect(try stack.request("POST", "/wakeup/unregister", body: unregisterBody(testToken(111))).status == 200)
        #expect(try stack.request("POST", "/wakeup", body: registerBody(testToken(112))).status == 200)
        #expect(try stack.store().count() == 2)
        #expect(stack.responderLog.contains("LIVEACTIVITY_MAX_REGISTRATIONS"))
    }

    @Test func aClientOverItsRateIsAnswered429WhileOthersAreServed() throws {
        let stack = try LiveStack(with([:], rate: "1r/m"))
        var statuses: [Int] = []
        for _ in 0..<25 {
            statuses.append(try stack.request("POST", "/wakeup", body: "{}", from: "127.0.0.4").status)
        }
        // One request plus the burst of 20 pass; the rest are refused before the responder.
        #expect(statuses.prefix(21).allSatisfy { $0 == 400 }, "\(statuses)")
        #expect(statuses.suffix(4).allSatisfy { $0 == 429 }, "\(statuses)")
        let limited = try stack.request("POST", "/wakeup", body: "{}", from: "127.0.0.4")
        #expect(jsonObject(limited)?["error"] as? String == "Too many requests; try again later")
        #expect(limited.header("Cache-Control") == "no-store")

        #expect(try stack.request("POST", "/wakeup", body: registerBody(testToken(120))).status == 200)
    }

    @Test func contentTypeParametersAndAMissingContentTypeAreAccepted() throws {
        let stack = try LiveStack()
        let withCharset = try stack.request(
            "POST", "/wakeup", body: registerBody(testToken(130)), contentType: "application/json; charset=utf-8")
        let without = try stack.request("POST", "/wakeup", body: registerBody(testToken(131)), contentType: nil)
        #expect(withCharset.status == 200)
        #expect(without.status == 200)
        #expect(try stack.store().count() == 2)
    }

    @Test func anUnusableDatabaseIsA503AndTheResponderStaysUp() throws {
        let folder = TemporaryDirectory("baddb")
        var options = with(["LIVEACTIVITY_DB": folder.file("missing/folder/db.sqlite")])
        options.waitForHealthy = false
        let stack = try LiveStack(options)

        let health = try stack.request("GET", "/wakeup/health")
        let register = try stack.request("POST", "/wakeup", body: registerBody(testToken(140)))
        #expect(health.status == 503)
        #expect(register.status == 503)
        #expect(health.header("Retry-After") == nil, "the responder's answer, not nginx's")
        #expect(jsonObject(register)?["error"] as? String == "Service temporarily unavailable; try again later")
        #expect(stack.responder.isRunning)
        #expect(stack.responderLog.contains("database error"))
    }
}
