import Foundation
import LiveActivityDomain
import LiveActivityStore
import SQLiteClient
import TestSupport
import Testing

/// A value from outside writes no line of its own (SPEC 7, issue 26 point 4): a parameter a
/// client of the socket sends, and what the database holds (any process of the web user may
/// write it), reach the responder's log and the operator's terminal (`stats`, `history`) with
/// every control character escaped and cut to a bounded length.
@Suite("Outside values in logs and on the terminal")
struct OutsideTextTests {
    let folder = TemporaryDirectory("outside-text")
    var database: String { folder.file("db.sqlite") }

    /// A line a forger would like to see in a log: a time stamp and a program's name of its own.
    static let forged = "2026-12-01T00:00:00Z liveactivity-sweep: forged"
    /// A terminal's escape sequences (clear the screen, colour) and a bidirectional override.
    static let terminalTricks = "\u{1B}[2J\u{1B}[31mred\u{7}\u{9B}\u{202E}"

    /// Every byte of `text` that a terminal or a log reader would act on: the controls other than
    /// the line breaks between lines, C1 controls, bidirectional overrides, line separators.
    func controls(in text: String) -> [UInt32] {
        text.unicodeScalars.filter { scalar in
            scalar != "\n"
                && [.control, .format, .lineSeparator, .paragraphSeparator].contains(scalar.properties.generalCategory)
        }.map(\.value)
    }

    @Test func aParameterSentToTheSocketWritesOneEscapedLine() throws {
        let socketPath = folder.file("fcgi.sock")
        let responder = try ChildProcess(
            product("liveactivity-fcgi"), ["--socket", socketPath, "--workers", "2"],
            environment: ["LIVEACTIVITY_DB": database, "PATH": "/usr/bin:/bin"], outputPath: folder.file("fcgi.log"))
        #expect(waitUntil(timeout: 60) { (try? RawSocket(unixPath: socketPath, timeout: 1)) != nil }, "\(responder.output)")
        let answer = try FastCGIClient.request(
            over: RawSocket(unixPath: socketPath),
            parameters: [
                "REQUEST_METHOD": "POST", "DOCUMENT_URI": "/wakeup", "CONTENT_TYPE": "application/json",
                "LIVEACTIVITY_APNS_ENVIRONMENT": "x\n" + Self.forged + Self.terminalTricks,
            ],
            body: Array(registerBody(testToken(1)).utf8))
        #expect(answer.status == 500)
        #expect(responder.stop() == .exited(0))
        let lines = responder.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let stamp = #/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ liveactivity-fcgi: /#
        for line in lines {
            #expect(line.prefixMatch(of: stamp) != nil, "a line the responder did not write: \(line)")
        }
        let reported = lines.filter { $0.contains("LIVEACTIVITY_APNS_ENVIRONMENT=") }
        #expect(reported.count == 1 && reported.first?.contains(#"x\n2026-12-01T00:00:00Z"#) == true, "\(reported)")
        #expect(controls(in: responder.output).isEmpty, "\(controls(in: responder.output))")
    }

    /// Registrations whose stored values were written by another process of the web user; the
    /// token of the one `history` can show (the other's type is no type at all).
    @discardableResult
    func tamperedDatabase() throws -> String {
        let token = testToken(2)
        // The file a web user's process can write (SQLite: what the values look like is the
        // engine's business; how `stats` and `history` print them is the test's).
        let writer = TestDatabase(sqliteFile: database)
        let now = Clock().now()
        for other in [token, testToken(3)] {
            try writer.register(
                try PushToken(validating: other), type: .charging, environment: .production, now: now - 60_000,
                expiresAt: now + 3_600_000, cap: 10, interval: nil)
        }
        let long = String(repeating: "A", count: 5000)
        try writer.apply(
            [],
            answered: [
                AnsweredPush(
                    key: .wake(try PushToken(validating: token)),
                    attempt: PushAttempt(
                        token: try PushToken(validating: token), sentAt: now - 5_000, answeredAt: now - 4_000, status: 400,
                        reason: "Bad\n" + Self.forged, apnsID: "id\r\n" + Self.forged + Self.terminalTricks),
                    activityType: .charging, environment: .production, previousDeliveryAt: nil)
            ])
        let tricky = "x\n" + Self.forged + Self.terminalTricks
        let store = (connection: try SQLiteConnection(path: database), ())
        try store.connection.statement("UPDATE push_targets SET last_error = ? WHERE push_token = ?")
            .run([.text(tricky + long), .text(token)])
        try store.connection.statement("UPDATE push_targets SET activity_type = ? WHERE push_token = ?")
            .run([.text("debug" + tricky + long), .text(testToken(3))])
        try store.connection.statement(
            """
            INSERT INTO sweep_runs (started_at, duration_ms, expired, outcome) VALUES (?, 100, 0, ?)
            """
        ).run([.integer(now - 30_000), .text(tricky + long)])
        let run = try store.connection.statement("SELECT max(id) FROM sweep_runs").scalarInt() ?? 0
        try store.connection.statement(
            """
            INSERT INTO sweep_run_kinds (started_at, run_id, push_kind, active, sent, skipped, failed, removed, held)
            VALUES (?, ?, ?, 1, 0, 0, 1, 0, 0)
            """
        ).run([.integer(now - 30_000), .integer(run), .text("widgets" + tricky)])
        try store.connection.statement(
            "INSERT INTO sweep_reasons (run_id, kind, push_kind, reason, count) VALUES (?, 'failed', ?, ?, 1)"
        ).run([.integer(run), .text("widgets" + tricky), .text(tricky + long)])
        try store.connection.statement(
            "INSERT INTO sweep_faults (run_id, environment, push_kind, kind, reason, pushes) VALUES (?, ?, ?, ?, ?, 1)"
        ).run([
            .integer(run), .text("sandbox" + tricky), .text("widgets" + tricky), .text("provider" + tricky), .text(tricky + long),
        ])
        return token
    }

    /// No control a terminal acts on, no forged line, and no value whole: each of the 5,000
    /// characters written is cut (`bound`: the most a line, or the JSON document, may hold).
    func expectOneLineEach(_ output: String, _ command: String, bound: Int = 600) {
        #expect(controls(in: output).isEmpty, "\(command) wrote controls \(controls(in: output))")
        let lines = output.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("2026-12-01T00:00:00Z") }, "\(command) wrote a forged line")
        #expect(lines.allSatisfy { $0.count < bound }, "\(command) wrote a line of \(lines.map(\.count).max() ?? 0) characters")
    }

    @Test func historyShowsWhatTheDatabaseHoldsEscapedAndCut() throws {
        let token = try tamperedDatabase()
        let run = try runCommand(
            product("liveactivity-sweep"), ["history", String(token.prefix(8))],
            environment: ["LIVEACTIVITY_DB": database, "PATH": "/usr/bin:/bin"])
        #expect(run.status == 0, "\(run.stderr)")
        expectOneLineEach(run.stdout, "history")
        #expect(run.stdout.contains(#"apns-id id\r\n2026-12-01T00:00:00Z"#), "\(run.stdout)")
        let json = try runCommand(
            product("liveactivity-sweep"), ["history", String(token.prefix(8)), "--json"],
            environment: ["LIVEACTIVITY_DB": database, "PATH": "/usr/bin:/bin"])
        #expect(json.status == 0, "\(json.stderr)")
        expectOneLineEach(json.stdout, "history --json", bound: 2000)
    }

    @Test func statsShowsWhatTheDatabaseHoldsEscapedAndCut() throws {
        try tamperedDatabase()
        for arguments in [["stats"], ["stats", "--json"]] {
            let run = try runCommand(
                product("liveactivity-sweep"), arguments, environment: ["LIVEACTIVITY_DB": database, "PATH": "/usr/bin:/bin"])
            #expect(run.status == 0, "\(run.stderr)")
            // The JSON is one line: its bound is the document's, still far below one whole value.
            expectOneLineEach(run.stdout, arguments.joined(separator: " "), bound: arguments.count == 2 ? 4000 : 600)
        }
    }
}
