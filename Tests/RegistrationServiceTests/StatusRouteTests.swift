import FastCGIWire
import Foundation
import LiveActivityDomain
import LiveActivityFigures
import LiveActivityStore
import TestSupport
import Testing

@testable import RegistrationService

/// `GET /wakeup/status` in-process (SPEC 3), as a table of requests and the answers they get:
/// the page with its headers for GET and HEAD under any prefix, 405 for other methods, and a
/// short HTML page with 503 when the database fails. The 405 row also runs through nginx
/// (`ErrorRow.routing`); the page itself in a browser in IntegrationTests.
@Suite struct StatusRouteTests {
    /// What a database holds before the request.
    enum Database: String, CustomStringConvertible, Sendable {
        case populated, empty, newerSchema, notADatabase
        var description: String { rawValue }
    }

    struct Row: Sendable, CustomStringConvertible {
        var method: String
        var path = "/wakeup/status"
        var database = Database.populated
        var status: Int
        var allow: String?
        var description: String { "\(method) \(path) on \(database) → \(status)" }
    }

    static let rows =
        [
            Row(method: "GET", status: 200),
            Row(method: "HEAD", status: 200),
            Row(method: "GET", path: "/dev/wakeup/status", status: 200),
            Row(method: "GET", database: .empty, status: 200),
            Row(method: "POST", status: 405, allow: "GET, HEAD"),
            Row(method: "PUT", status: 405, allow: "GET, HEAD"),
            Row(method: "DELETE", path: "/prod/wakeup/status", status: 405, allow: "GET, HEAD"),
            Row(method: "GET", database: .newerSchema, status: 503),
        ]

    /// Every row on each engine, and on SQLite a file that is not a database (only a file can be).
    static let cases =
        TestEngine.real.flatMap { engine in rows.map { (engine, $0) } }
        + [(TestEngine.sqlite, Row(method: "GET", database: .notADatabase, status: 503))]

    @Test(arguments: cases)
    func theStatusRouteAnswers(engine: TestEngine, _ row: Row) throws {
        let database = try TestDatabase(engine, label: "status")
        switch row.database {
        case .populated: try populateStatsFigures(database, now: Clock().now())
        case .empty: break
        case .newerSchema: try database.pretendNewerSchema()
        case .notADatabase:
            try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: database.setting))
        }
        let logged = LockedBox<[String]>([])
        let api = RegistrationAPI(database: database, log: { line in logged.update { $0.append(line) } })

        let response = api.respond(to: HTTPRequest(method: row.method, path: row.path))

        #expect(response.status == row.status)
        #expect(response.header("Allow") == row.allow)
        switch row.status {
        case 200:
            #expect(response.header("Content-Type") == "text/html; charset=utf-8")
            #expect(response.header("Cache-Control") == "no-store")
            #expect(
                response.header("Content-Security-Policy") == "default-src 'none'; style-src 'unsafe-inline'; img-src data:")
            // The operator's page is not for other sites to read (unlike the app's JSON API).
            #expect(response.header("Access-Control-Allow-Origin") == nil)
            #expect(response.bodyText.hasPrefix("<!DOCTYPE html>"))
            #expect(response.bodyText.contains("<svg role=\"img\""))
            #expect(logged.get().isEmpty)
        case 503:
            #expect(response.header("Content-Type") == "text/html; charset=utf-8")
            #expect(response.header("Cache-Control") == "no-store")
            #expect(response.bodyText == StatusPage.unavailable)
            #expect(response.bodyText.contains("<h1>Status unavailable</h1>"))
            #expect(!response.bodyText.contains(database.engine.location))
            // One line naming the cause, as for every database fault.
            #expect(logged.get().count == 1)
            #expect(logged.get().first?.hasPrefix("database error: ") == true)
        default:
            #expect(response == APIError.methodNotAllowed(allow: "GET, HEAD").response)
        }
    }

    @Test(arguments: TestEngine.real)
    func thePageShowsTheFiguresStatsGathers(engine: TestEngine) throws {
        let database = try populateStatsFigures(TestDatabase(engine, label: "status-figures"), now: Clock().now())
        let api = RegistrationAPI(database: database)
        let page = api.respond(to: HTTPRequest(method: "GET", path: "/wakeup/status")).bodyText
        #expect(page.contains("data-figure=\"active\" data-value=\"4\""))
        #expect(page.contains("data-figure=\"sweeps24h.sent\" data-value=\"90\""))
        #expect(
            page.contains("data-figure=\"faults24h.sandbox/configuration/BadEnvironmentKeyInToken.pushes\" data-value=\"40\""))
    }
}
