import Testing

@testable import PostgresClient

/// Connection strings are checked by libpq's own parser before any connect, wrong ones named,
/// and shown in logs without their password.
@Suite struct PostgresConninfoTests {
    @Test func aURIAndTheKeyValueFormParseToTheSameOptions() throws {
        let uri = try PostgresConninfo("postgresql://sweep@%2Fvar%2Frun%2Fpostgresql:5433/liveactivity?application_name=x")
        let pairs = try PostgresConninfo("host=/var/run/postgresql port=5433 dbname=liveactivity user=sweep application_name=x")
        #expect(uri.redacted == pairs.redacted)
        #expect(uri.database == "liveactivity")
        #expect(uri.user == "sweep")
        #expect(uri.value("host") == "/var/run/postgresql")
        #expect(try PostgresConninfo("postgres://h/db").database == "db")
    }

    @Test(arguments: [
        "postgresql://sweep:hunter2-secret@db.example/liveactivity",
        "postgresql://sweep@db.example/liveactivity?password=hunter2-secret",
        "host=db.example dbname=liveactivity password=hunter2-secret",
        "host=db.example password='hunter2-secret with spaces' dbname=liveactivity",
        "postgresql://sweep:hunter2-secret@db1.example,db2.example/liveactivity?target_session_attrs=read-write",
    ])
    func theRedactedFormNeverHoldsThePassword(conninfo: String) throws {
        let parsed = try PostgresConninfo(conninfo)
        #expect(!parsed.redacted.contains("hunter2"), "\(parsed.redacted)")
        #expect(!"\(parsed)".contains("hunter2"))
        #expect(parsed.redacted.contains("password=***"))
        #expect(parsed.holdsPassword)
        #expect(parsed.redacted.contains("liveactivity"), "the rest is shown: \(parsed.redacted)")
    }

    @Test func aStringWithoutAPasswordSaysSo() throws {
        let parsed = try PostgresConninfo("postgresql://sweep@db.example/liveactivity?passfile=/etc/liveactivity/pgpass")
        #expect(!parsed.holdsPassword)
        #expect(!parsed.redacted.contains("***"))
    }

    @Test(arguments: [
        ("host=db password=abc def", "def"),
        ("host=db password='hunter2-secret", "hunter2"),
        ("host=db password=hunter2 secret=x", "secret"),
        ("postgresql://u:hunter2%zz@db/x", "hunter2"),
        ("postgresql://u:pw@db/x?hunter2-secret", "hunter2"),
        ("port=hunter2-secret", "hunter2"),
    ])
    func aStringLibpqCannotParseIsRefusedWithoutQuotingWhatItHeld(conninfo: String, secret: String) {
        let error = #expect(throws: PostgresError.self) { try PostgresConninfo(conninfo) }
        #expect(error?.kind == .invalidConnectionString)
        #expect(error.map { !$0.description.contains(secret) } == true, "\(String(describing: error))")
    }

    @Test(arguments: [
        ("mysql://db/x", "postgresql://"),
        ("postgresql://a,b,c/x?port=1,2", "2 ports for 3 hosts"),
        ("postgresql://db/x?target_session_attrs=writable", "target_session_attrs"),
        ("host=db port=99999", "port"),
        ("host=db connect_timeout=soon", "connect_timeout"),
        ("host=db nonsense=1", "invalid connection option"),
    ])
    func aWrongStringIsRefusedNamingWhatIsWrong(conninfo: String, named: String) {
        let error = #expect(throws: PostgresError.self) { try PostgresConninfo(conninfo) }
        #expect(error?.kind == .invalidConnectionString)
        #expect(error?.message.contains(named) == true, "\(String(describing: error))")
    }

    @Test func severalHostsAreTriedOneAtATimeWithTheirOwnPorts() throws {
        let parsed = try PostgresConninfo("postgresql://u@a:5432,b:5433/db?target_session_attrs=read-write")
        let attempts = parsed.hostAttempts().map { attempt in
            Dictionary(uniqueKeysWithValues: attempt.map { ($0.keyword, $0.value) })
        }
        #expect(attempts.map { $0["host"] } == ["a", "b"])
        #expect(attempts.map { $0["port"] } == ["5432", "5433"])
        #expect(attempts.allSatisfy { $0["target_session_attrs"] == "read-write" && $0["dbname"] == "db" && $0["user"] == "u" })
        let preferring = try PostgresConninfo("host=a,b port=5432 target_session_attrs=prefer-standby").hostAttempts()
        #expect(
            preferring.map { $0.first { $0.keyword == "target_session_attrs" }?.value } == ["standby", "standby", "any", "any"])
        #expect(try PostgresConninfo("host=a dbname=x").hostAttempts().count == 1)
    }
}
