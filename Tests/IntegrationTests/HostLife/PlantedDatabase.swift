import Foundation
import LiveActivityDomain
import SQLiteClient
import TestSupport
import Testing

/// A table's integer column: `table.column`.
struct IntegerColumn: CustomStringConvertible {
    let table: String
    let column: String
    var description: String { "\(table).\(column)" }
}

/// One reader of a planted database: a program run once, as an operator, cron or nginx runs it.
struct PlantedReader {
    let name: String
    let run: () throws -> CommandResult

    /// Whether `run` answered as it does for a database it can use: exit 0, an HTTP 200, and
    /// pushes sent by the sweep.
    func answered(_ run: CommandResult) -> Bool {
        guard run.status == 0 else { return false }
        if name.hasPrefix("GET") || name.hasPrefix("POST") { return run.stdout.hasPrefix("Status: 200") }
        if name == "sweep" { return SweepFixture.field("sent", in: run.stdout).flatMap { Int($0) }.map { $0 > 0 } == true }
        return true
    }

    /// How `run` crashed (a signal, or Swift's trap message), nil when it answered: the trap's
    /// words and the first line of the project's sources in the backtrace.
    static func crash(of run: CommandResult) -> String? {
        let output = run.stdout + run.stderr
        let how: String
        if case .signalled(let signal) = run.end {
            how = "died of signal \(signal)"
        } else if run.status > 128 {
            how = "exited \(run.status), as a shell reports a signal"
        } else if output.contains("Fatal error") {
            how = "exited \(run.status) with a trap"
        } else {
            return nil
        }
        let lines = output.split(separator: "\n")
        let trap = lines.lazy.compactMap { line in
            (line.range(of: "Fatal error") ?? line.range(of: "Swift runtime failure")).map {
                String(line[$0.lowerBound...].split(separator: " in ").first ?? "")
            }
        }.first
        let site = lines.lazy.compactMap { line in line.range(of: "Sources/").map { String(line[$0.lowerBound...]) } }
            .first { $0.contains(".swift:") }
        return [how, trap, site].compactMap { $0 }.joined(separator: ": ")
    }
}

/// A database the programs filled - registrations with widgets, a sweep against the stand-in, an
/// ack, a run with reasons and faults - made fresh for each plant: a copy of the file on SQLite,
/// the planted tables put back from copies of their own on PostgreSQL.
final class PlantedDatabase {
    let fixture: SweepFixture
    var database: TestDatabase { fixture.database }
    let folder = TemporaryDirectory("planted")
    /// The tables planted into (and put back on PostgreSQL).
    private(set) var tables: [String] = []

    init(fillingWith fixture: SweepFixture) throws {
        self.fixture = fixture
        try fixture.register(1...3, type: .debug, widgets: true)
        let first = try fixture.sweep()
        #expect(first.status == 0, "\(first.stdout) \(first.stderr)")
        let now = Clock().now()
        try database.acknowledge(try PushToken(validating: sampleToken(1)), now: now)
        var summary = SweepSummary()
        summary.startedAt = now
        summary.failed = 1
        summary.removed = 1
        summary.failureReasons = ["ServiceUnavailable": 1]
        summary.removalReasons = ["Unregistered": 1]
        summary.withheld = [WithheldWakes.Group(activityType: .debug, environment: .sandbox, reason: .stretched): 2]
        summary.faults = [
            SweepFault(environment: .sandbox, kind: .configuration, reason: "BadEnvironmentKeyInToken", pushes: 1, advice: "")
        ]
        try database.record(summary)
        // Due again, so each reader's sweep pushes (and writes its outcomes over the planted values).
        try database.execute("UPDATE push_targets SET next_push_at = \(now - 1000)")
        switch database.kind {
        case .sqlite:
            tables = try database.rows("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
                .compactMap { $0.first ?? nil }
            try SQLiteConnection(path: database.setting).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        case .postgres, .memory:
            tables = try Self.responderTables()
            for table in tables { try database.execute("CREATE TABLE planted_\(table) AS SELECT * FROM \(table)") }
        }
        let empty = try tables.filter { try database.scalar("SELECT count(*) FROM \($0)") == 0 }
        #expect(!tables.isEmpty && empty.isEmpty, "tables the fill left empty, where no plant lands: \(empty) of \(tables)")
    }

    /// The tables POSTGRESQL.md grants the responder's role to write.
    static func responderTables() throws -> [String] {
        let grants = try Documents.text("docs/POSTGRESQL.md").split(separator: "\n").filter {
            $0.hasPrefix("GRANT INSERT") && $0.hasSuffix("TO \"www-data\";")
        }
        let tables = grants.flatMap { grant in
            (grant.split(separator: " ON ").last ?? "").replacingOccurrences(of: " TO \"www-data\";", with: "")
                .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        #expect(tables.contains("delivery_hours") && tables.contains("push_targets"), "\(tables)")
        return tables
    }

    /// Every column of `tables` that holds an integer: on SQLite each whose declared type gives it
    /// INTEGER affinity (SQLite's first rule: the type contains "INT"), generated ones aside.
    func integerColumns() throws -> [IntegerColumn] {
        let rows: [[String?]]
        switch database.kind {
        case .sqlite:
            rows = try database.rows(
                """
                SELECT m.name, c.name FROM sqlite_schema m, pragma_table_xinfo(m.name) c
                WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND instr(upper(c.type), 'INT') > 0 AND c.hidden = 0
                ORDER BY m.name, c.cid
                """)
        case .postgres, .memory:
            rows = try database.rows(
                """
                SELECT table_name, column_name FROM information_schema.columns
                WHERE table_schema = current_schema() AND data_type IN ('smallint', 'integer', 'bigint')
                    AND table_name IN (\(tables.map { "'\($0)'" }.joined(separator: ", ")))
                ORDER BY table_name, ordinal_position
                """)
        }
        return rows.map { IntegerColumn(table: $0[0] ?? "", column: $0[1] ?? "") }
    }

    /// The filled database, fresh: on SQLite a copy of the file in the plants' folder (replacing
    /// the last one); on PostgreSQL the database itself with the planted tables put back.
    func fresh() throws -> PlantedCopy {
        switch database.kind {
        case .sqlite:
            let target = folder.file("planted.sqlite")
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: target + suffix) }
            try FileManager.default.copyItem(atPath: database.setting, toPath: target)
            return PlantedCopy(database: TestDatabase(sqliteFile: target))
        case .postgres, .memory:
            try database.execute(tables.map { "DELETE FROM \($0); INSERT INTO \($0) SELECT * FROM planted_\($0);" }.joined())
            return PlantedCopy(database: database)
        }
    }

    /// Every program that reads the database back, each run once against `copy`: the operator's
    /// commands, the responder's routes (as CGI: one process a request), then the writers.
    func readers(of copy: PlantedCopy) -> [PlantedReader] {
        var sweepEnvironment = fixture.sweepEnvironment()
        sweepEnvironment["LIVEACTIVITY_DB"] = copy.database.setting
        // The fill's folder, whose cached provider token the stand-in knows (a new one per copy
        // would be refused within 20 minutes).
        sweepEnvironment["LIVEACTIVITY_SWEEP_DIR"] = database.sweepFolder
        let token = sampleToken(1)
        var readers: [PlantedReader] = []
        for arguments in [
            ["stats"], ["stats", "--json"], ["stats", "--html"], ["history", token], ["history", token, "--json"],
        ] {
            readers.append(
                PlantedReader(name: arguments.joined(separator: " ")) {
                    try runCommand(
                        product("liveactivity-sweep"), arguments, environment: sweepEnvironment, crashFailsTheTest: false)
                })
        }
        let requests: [(String, String, String?)] = [
            ("GET", "/status", nil), ("GET", "/metrics", nil), ("GET", "/health", nil),
            ("POST", "/ack", unregisterBody(sampleToken(1))),
            ("POST", "", registerBody(sampleToken(2), widget: SweepFixture.widgetToken(2))),
            ("POST", "", registerBody(sampleToken(9))),
        ]
        for (method, path, body) in requests {
            readers.append(PlantedReader(name: "\(method) /wakeup\(path)") { try copy.cgi(method, path, body: body) })
        }
        readers.append(
            PlantedReader(name: "sweep") {
                try runCommand(product("liveactivity-sweep"), [], environment: sweepEnvironment, crashFailsTheTest: false)
            })
        readers.append(
            PlantedReader(name: "POST /wakeup/unregister") {
                try copy.cgi("POST", "/unregister", body: unregisterBody(sampleToken(3)))
            })
        return readers
    }
}

/// The filled database, fresh, to plant one value into.
struct PlantedCopy {
    let database: TestDatabase

    /// Sets `column` to `value` as any process that writes the database could; how many rows
    /// changed. On SQLite in every row of the table that takes it (a key's second row would
    /// collide: left as it was), CHECKs ignored as any writer of the file may; on PostgreSQL in
    /// every row, or in one where the column is part of a key.
    func plant(_ value: Int64, in column: IntegerColumn) throws -> Int {
        switch database.kind {
        case .sqlite:
            let connection = try SQLiteConnection(path: database.setting)
            try connection.execute("PRAGMA ignore_check_constraints = ON")
            try connection.execute("UPDATE OR IGNORE \(column.table) SET \(column.column) = \(value)")
            return connection.changes
        case .postgres, .memory:
            let update = "UPDATE \(column.table) SET \(column.column) = \(value)"
            let one = " WHERE ctid = (SELECT ctid FROM \(column.table) LIMIT 1)"
            let changed = { (sql: String) in try database.scalar("WITH u AS (\(sql) RETURNING 1) SELECT count(*) FROM u") }
            // A second row would collide where the column is part of a key: then one row.
            if let all = try? changed(update) { return Int(all) }
            return Int(try changed(update + one) ?? 0)
        }
    }

    /// Puts an entry answered at `answeredAt` first in every target's attempts, as a writer of
    /// the row could: how many rows changed. The entry's bytes (`AttemptRing`): the answer time
    /// (Int64, little-endian), sent 1 ms before, status 200, acked 10 ms after, no apns-id, no
    /// reason.
    func plantAttempt(answeredAt: Int64) throws -> Int {
        let bytes = withUnsafeBytes(of: answeredAt.littleEndian, Array.init) + [1, 0, 0, 0, 200, 0, 10, 0, 0, 0, 0, 0]
        let hex = bytes.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        switch database.kind {
        case .sqlite:
            let connection = try SQLiteConnection(path: database.setting)
            try connection.execute("UPDATE push_targets SET attempts = X'\(hex)' || coalesce(attempts, X'')")
            return connection.changes
        case .postgres, .memory:
            return Int(
                try database.scalar(
                    """
                    WITH u AS (UPDATE push_targets SET attempts = ARRAY[decode('\(hex)', 'hex')] || attempts RETURNING 1)
                    SELECT count(*) FROM u
                    """) ?? 0)
        }
    }

    /// The responder once as plain CGI, as Apache's `ScriptAlias` runs it.
    func cgi(_ method: String, _ path: String, body: String?) throws -> CommandResult {
        var variables = [
            "GATEWAY_INTERFACE": "CGI/1.1", "SERVER_PROTOCOL": "HTTP/1.1", "REQUEST_METHOD": method, "SCRIPT_NAME": "/wakeup",
            "PATH_INFO": path, "LIVEACTIVITY_DB": database.setting, "PATH": "/usr/bin:/bin", "REMOTE_ADDR": "127.0.0.1",
        ]
        if let body {
            variables["CONTENT_LENGTH"] = String(body.utf8.count)
            variables["CONTENT_TYPE"] = "application/json"
        }
        return try runCommand(
            product("liveactivity-fcgi"), [], environment: variables, input: body.map { Array($0.utf8) }, crashFailsTheTest: false
        )
    }
}
