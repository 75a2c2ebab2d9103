import Foundation
import LiveActivityDomain
import TestSupport
import Testing

@Suite("Errors through nginx")
struct ErrorsThroughNginxTests {
    /// SPEC section 3's error table (`ErrorRow.all`, shared with the in-process run) through the
    /// real stack, one stack for every row: each answered with its status, body and headers, and
    /// the database unchanged after each.
    @Test(arguments: TestEngine.real)
    func everyErrorRowIsAnsweredWithItsStatusAndChangesNothing(engine: TestEngine) throws {
        let stack = try LiveStack(engine)
        #expect(
            try stack.request("POST", "/wakeup", body: registerBody(ErrorRow.seedToken, widget: ErrorRow.widgetToken)).status
                == 200)
        for row in ErrorRow.all + ErrorRow.nginxOnly {
            let before = try snapshot(of: stack)

            let result = try stack.request(row.method, row.path, body: row.body, contentType: row.contentType)

            let context = Comment(rawValue: row.name)
            #expect(result.status == row.status, context)
            #expect(result.text == row.expectedBody, context)
            for (header, value) in ErrorRow.expectedHeaders {
                #expect(result.header(header) == value, Comment(rawValue: row.name + ": " + header))
            }
            #expect(result.header("Allow") == row.allow, context)
            #expect(try snapshot(of: stack) == before, context)
            #expect(before.count == 2, "the seed: its wake and widgets targets; \(row.name)")
        }
    }

    @Test(arguments: TestEngine.real)
    func aFullTableRefusesNewTokensWith503AndEvictsNothing(engine: TestEngine) throws {
        let stack = try LiveStack(with(engine, ["LIVEACTIVITY_MAX_REGISTRATIONS": "2"]))
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
        #expect(try stack.database.count() == 2)
        #expect(stack.responderLog.contains("LIVEACTIVITY_MAX_REGISTRATIONS"))
    }

    /// 400 refusals at the cap through nginx and FastCGI: the responder's log grows by a line a
    /// minute, not a line a request (SPEC 7). The bound follows the time the requests took, so a
    /// slow machine is no failure.
    @Test(arguments: TestEngine.real)
    func refusalsAtTheCapLogALineAMinuteNotALineARequest(engine: TestEngine) throws {
        let stack = try LiveStack(with(engine, ["LIVEACTIVITY_MAX_REGISTRATIONS": "1"], workers: 4))
        #expect(try stack.request("POST", "/wakeup", body: registerBody(testToken(120))).status == 200)
        let started = Date()
        var statuses: [Int: Int] = [:]
        for index in 0..<400 {
            statuses[try stack.request("POST", "/wakeup", body: registerBody(testToken(1000 + index))).status, default: 0] += 1
        }
        let minutes = Int(Date().timeIntervalSince(started) / 60)
        #expect(statuses == [503: 400])
        let refusals = stack.responderLog.split(separator: "\n").filter { $0.contains("registration refused") }
        #expect(refusals.count >= 1 && refusals.count <= 1 + minutes, "\(refusals.count) lines for 400 refusals")
    }

    @Test(arguments: TestEngine.real)
    func aClientOverItsRateIsAnswered429WhileOthersAreServed(engine: TestEngine) throws {
        let stack = try LiveStack(with(engine, [:], rate: "1r/m"))
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

    @Test(arguments: TestEngine.real)
    func contentTypeParametersAndAMissingContentTypeAreAccepted(engine: TestEngine) throws {
        let stack = try LiveStack(engine)
        let withCharset = try stack.request(
            "POST", "/wakeup", body: registerBody(testToken(130)), contentType: "application/json; charset=utf-8")
        let without = try stack.request("POST", "/wakeup", body: registerBody(testToken(131)), contentType: nil)
        #expect(withCharset.status == 200)
        #expect(without.status == 200)
        #expect(try stack.database.count() == 2)
    }

    @Test(arguments: TestEngine.real)
    func anUnusableDatabaseIsA503AndTheResponderStaysUp(engine: TestEngine) throws {
        let folder = TemporaryDirectory("baddb")
        var options = with(engine, ["LIVEACTIVITY_DB": folder.file("missing/folder/db.sqlite")])
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
