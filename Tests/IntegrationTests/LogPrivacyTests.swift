import Foundation
import LiveActivityDomain
import TestSupport
import Testing

/// SPEC section 1: a log shows at most a token's first 8 characters. This runs the whole system
/// - registrations good and bad through nginx, a sweep with every kind of APNs answer, stats -
/// and searches every log it produced for any 12 characters of any token.
@Suite("Log privacy")
struct LogPrivacyTests {
    @Test(arguments: TestEngine.real)
    func noLogOfALiveRunHoldsMoreThanATokensFirstEightCharacters(engine: TestEngine) throws {
        let stack = try LiveStack(engine)
        let standIn = try StandInStack()
        let tokens = (0..<6).map { testToken(40_000 + $0) }
        let sweepEnvironment = standIn.sweepEnvironment(database: stack.databasePath)

        // Registrations as the app sends them, one in capitals and one under the sandbox prefix.
        #expect(try stack.request("POST", "/wakeup", body: registerBody(tokens[0].uppercased())).status == 200)
        #expect(try stack.request("POST", "/dev/wakeup", body: registerBody(tokens[1], type: "debug")).status == 200)
        for token in tokens[2...] {
            #expect(try stack.request("POST", "/wakeup", body: registerBody(token)).status == 200)
        }
        // Bad requests that carry token-like text in every field.
        let bad = testToken(40_100)
        let badBodies = [
            registerBody(bad + "a"), registerBody(bad + bad + bad + bad), registerBody(String(bad.dropLast(2)) + "zz"),
            registerBody(bad, type: bad), registerBody(bad, environment: bad), "{\"pushToken\":\"\(bad)\"",
            "{\"pushToken\":\"\(bad)\",\"pad\":\"\(String(repeating: bad, count: 80))\"}",
        ]
        for body in badBodies {
            #expect(try stack.request("POST", "/wakeup", body: body).status >= 400)
        }
        #expect(try stack.request("POST", "/wakeup", body: registerBody(bad), contentType: "text/plain").status == 415)
        // (A path is logged as sent: the app puts no token in one, so neither does this test.)

        // A sweep meeting each kind of answer: delivered, 410, BadDeviceToken, 500, another 4xx.
        try standIn.state().script(token: tokens[2], status: 410, reason: "Unregistered", timestamp: Clock().now())
        try standIn.state().script(token: tokens[3], status: 400, reason: "BadDeviceToken")
        try standIn.state().script(token: tokens[4], status: 500, reason: "InternalServerError")
        try standIn.state().script(token: tokens[5], status: 400, reason: "BadCollapseId")
        let sweep = try runCommand(product("liveactivity-sweep"), [], environment: sweepEnvironment)
        #expect(sweep.status == 0, "\(sweep.stderr)")
        let stats = try runCommand(product("liveactivity-sweep"), ["stats"], environment: sweepEnvironment)
        let statsJSON = try runCommand(product("liveactivity-sweep"), ["stats", "--json"], environment: sweepEnvironment)
        #expect(try stack.request("POST", "/wakeup/unregister", body: unregisterBody(tokens[0])).status == 200)
        // A database fault on the way: the file vanishes (the server ends the session) and the
        // responder says so.
        try stack.database.breakOpenConnections()
        #expect(try stack.request("POST", "/wakeup", body: registerBody(tokens[1])).status == 200, "\(stack.responderLog)")

        let logs = [
            "responder": stack.responderLog, "sweep": sweep.stdout + sweep.stderr,
            "stats": stats.stdout + stats.stderr + statsJSON.stdout + statsJSON.stderr,
            "nginx access log": stack.accessLog, "nginx error log": stack.errorLog,
        ]
        // The search would find a leak: the logs mention tokens, by their prefixes.
        #expect(tokens.contains { stats.stdout.contains(String($0.prefix(8)) + "…") }, "stats names top tokens: \(stats.stdout)")
        #expect(sweep.stdout.contains("failures=BadCollapseId:1,InternalServerError:1"), "\(sweep.stdout)")
        #expect(stack.accessLog.contains("/wakeup"))
        for (name, text) in logs {
            for token in tokens + [bad] {
                #expect(!holdsMoreThanPrefix(of: token, text), "\(name) holds token \(token.prefix(8))…:\n\(text)")
            }
        }
    }

    /// Whether `text` holds any 12 consecutive characters of `token` (case-insensitive).
    func holdsMoreThanPrefix(of token: String, _ text: String) -> Bool {
        let haystack = text.lowercased()
        let characters = Array(token.lowercased())
        return stride(from: 0, through: characters.count - 12, by: 2).contains {
            haystack.contains(String(characters[$0..<($0 + 12)]))
        }
    }
}
