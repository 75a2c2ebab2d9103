import Foundation
import LiveActivityDomain
import LiveActivityStore
import TestSupport
import Testing

/// The same binary as plain CGI (SPEC section 2), the way Apache's `ScriptAlias /wakeup` runs
/// it: one request from the environment and stdin, the answer on stdout.
@Suite("CGI mode")
struct CGIModeTests {
    let database: TestDatabase
    var databasePath: String { database.setting }

    /// The suite's state on `engine`, made afresh by each test case (the engine is its argument).
    init(_ engine: TestEngine) throws { database = try TestDatabase(engine, label: "cgi") }

    /// Runs the responder once as a CGI program.
    func cgi(
        _ method: String, pathInfo: String = "", body: String? = nil, contentType: String? = "application/json",
        contentLength: Int? = nil, environment: [String: String] = [:]
    ) throws -> (result: HTTPResult, stderr: String) {
        var variables = [
            "GATEWAY_INTERFACE": "CGI/1.1", "SERVER_PROTOCOL": "HTTP/1.1", "REQUEST_METHOD": method,
            "SCRIPT_NAME": "/wakeup", "PATH_INFO": pathInfo, "LIVEACTIVITY_DB": databasePath, "PATH": "/usr/bin:/bin",
        ]
        if let body {
            variables["CONTENT_LENGTH"] = String(contentLength ?? body.utf8.count)
            if let contentType { variables["CONTENT_TYPE"] = contentType }
        }
        variables.merge(environment) { _, new in new }
        let run = try runCommand(
            product("liveactivity-fcgi"), [], environment: variables, input: body.map { Array($0.utf8) })
        #expect(run.status == 0, "exit status; stderr: \(run.stderr)")
        return (try HTTPResult(parsing: Array(run.stdout.utf8)), run.stderr)
    }

    func stored(_ token: String) throws -> Registration? {
        try database.registration(PushToken(validating: token))
    }

    @Test(arguments: TestEngine.real) static func aCGIRequestRegistersWithTheConfiguredEnvironmentAndLogsNothing(
        engine: TestEngine
    ) throws {
        let fixture = try Self(engine)
        let token = testToken(300)
        let (result, stderr) = try fixture.cgi("POST", body: registerBody(token), environment: ["APNS_ENVIRONMENT": "sandbox"])
        #expect(result.status == 200)
        #expect(result.text == "{\"success\":true}")
        #expect(result.header("Content-Type") == "application/json")
        #expect(result.header("Cache-Control") == "no-store")
        #expect(result.header("Access-Control-Allow-Origin") == "*")
        #expect(try fixture.stored(token)?.environment == .sandbox)
        #expect(stderr.isEmpty)
    }

    @Test(arguments: TestEngine.real)
    static func aCGIRequestTakesTheEnvironmentParameterLikeAnNginxLocation(engine: TestEngine) throws {
        let fixture = try Self(engine)
        let token = testToken(301)
        let (result, _) = try fixture.cgi(
            "POST", body: registerBody(token), environment: ["LIVEACTIVITY_APNS_ENVIRONMENT": "sandbox"])
        #expect(result.status == 200)
        #expect(try fixture.stored(token)?.environment == .sandbox)
    }

    @Test(arguments: TestEngine.real)
    static func unregisterThroughPathInfoRemovesTheRowAndIsIdempotent(engine: TestEngine) throws {
        let fixture = try Self(engine)
        let token = testToken(302)
        #expect(try fixture.cgi("POST", body: registerBody(token)).result.status == 200)
        let first = try fixture.cgi("POST", pathInfo: "/unregister", body: unregisterBody(token)).result
        #expect(first.status == 200)
        #expect(first.text == "{\"success\":true}")
        #expect(try fixture.stored(token) == nil)
        #expect(try fixture.cgi("POST", pathInfo: "/unregister", body: unregisterBody(token)).result.status == 200)
    }

    @Test(arguments: TestEngine.real)
    static func healthCountsTheRegistrations(engine: TestEngine) throws {
        let fixture = try Self(engine)
        #expect(try fixture.cgi("POST", body: registerBody(testToken(303))).result.status == 200)
        let health = try fixture.cgi("GET", pathInfo: "/health").result
        #expect(health.status == 200)
        #expect(health.text == "{\"status\":\"ok\",\"registrations\":1}")
    }

    @Test(arguments: TestEngine.real)
    static func errorRowsAnswerAsThroughNginxAndStoreNothing(engine: TestEngine) throws {
        let fixture = try Self(engine)
        let short = try fixture.cgi("POST", body: registerBody("abcdef")).result
        #expect(short.status == 400)
        #expect(jsonObject(short)?["error"] as? String == "pushToken is too short (at least 64 hex characters)")

        let unknown = try fixture.cgi("POST", pathInfo: "/elsewhere", body: registerBody(testToken(304))).result
        #expect(unknown.status == 404)

        let wrongMethod = try fixture.cgi("GET").result
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("Allow") == "POST")

        let wrongType = try fixture.cgi("POST", body: registerBody(testToken(304)), contentType: "text/plain").result
        #expect(wrongType.status == 415)

        // Without nginx in front, the responder enforces the 4 KiB limit itself, declared or sent.
        let declared = try fixture.cgi("POST", body: registerBody(testToken(304)), contentLength: 5000).result
        #expect(declared.status == 413)
        #expect(jsonObject(declared)?["error"] as? String == "Request body is larger than 4096 bytes")
        let padded = "{\"pushToken\":\"\(testToken(304))\",\"pad\":\"\(String(repeating: "x", count: 4100))\"}"
        #expect(try fixture.cgi("POST", body: padded).result.status == 413)

        #expect(try fixture.database.count() == 0)
    }

    @Test(arguments: TestEngine.real)
    static func aBodyBeyondContentLengthIsNotRead(engine: TestEngine) throws {
        let fixture = try Self(engine)
        // RFC 3875: exactly CONTENT_LENGTH bytes; what follows is not part of the request.
        let body = registerBody(testToken(305))
        let result = try fixture.cgi("POST", body: body + "garbage", contentLength: body.utf8.count).result
        #expect(result.status == 200)
        #expect(try fixture.stored(testToken(305)) != nil)
    }
}
