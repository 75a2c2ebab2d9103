import LiveActivityStore
import PostgresClient
import PostgresStore

/// A PostgreSQL database for a test: a database of its own in the test run's cluster.
struct PostgresTestFixture: TestEngineFixture {
    func create(label: String, in folder: TemporaryDirectory) throws -> TestDatabase.Parts {
        let database = try PostgresCluster.shared().createDatabase(label)
        let uri = database.uri()
        return TestDatabase.Parts(
            setting: uri, engine: try PostgresEngine(uri: uri), raw: RawPostgres(conninfo: uri), postgres: database)
    }

    /// A database the server does not have.
    func unusable(in folder: TemporaryDirectory) throws -> TestDatabase {
        try TestDatabase(
            postgresURI: PostgresCluster.uri(hosts: [try PostgresCluster.shared()], database: "missing_folder_database"),
            folder: folder)
    }

    func pretendNewerSchema(_ database: TestDatabase) throws {
        try database.reading { _ in }  // migrated
        try database.execute("UPDATE liveactivity_schema SET version = 9999")
    }

    /// PostgreSQL waits for a lock for as long as a call may take.
    func patientEngine(_ database: TestDatabase) -> any StoreEngine { database.engine }

    /// A lock waited on for a tenth of a second (PostgreSQL's lock_timeout), then busy.
    func impatientEngine(_ database: TestDatabase) -> any StoreEngine {
        let uri = database.postgres?.uri(options: ["options": "-c lock_timeout=100"]) ?? database.setting
        return (try? PostgresEngine(uri: uri)) ?? database.engine
    }

    func refusingInserts(endingIn suffix: String, message: String) throws -> String {
        """
        CREATE FUNCTION poisoned() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.push_token LIKE '%\(suffix)' THEN RAISE EXCEPTION '\(message)'; END IF; RETURN NEW; END $$;
        CREATE TRIGGER poisoned BEFORE INSERT ON push_targets FOR EACH ROW EXECUTE FUNCTION poisoned();
        """
    }

    func refusingUpdates(of token: String) throws -> String {
        """
        CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.push_token = '\(token)' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$;
        CREATE TRIGGER refuse BEFORE UPDATE ON push_targets FOR EACH ROW EXECUTE FUNCTION refuse();
        """
    }

    func holdWriteLock(_ database: TestDatabase) throws -> WriteLockHolder {
        let connection = try PostgresConnection(conninfo: database.setting, callTimeout: .seconds(120))
        try connection.execute("BEGIN; LOCK TABLE push_targets IN EXCLUSIVE MODE")
        return WriteLockHolder { try connection.execute("COMMIT") }
    }

    /// Every session of the database ended by the server.
    func breakOpenConnections(_ database: TestDatabase) throws {
        guard let postgres = database.postgres else { return }
        _ = try postgres.cluster.terminateBackends(database: postgres.name)
    }

    var attemptsAsText: String { "attempts::text" }

    /// A folder of the test's (`LIVEACTIVITY_SWEEP_DIR`): there is no file to put it beside.
    func sweepFolder(_ database: TestDatabase) -> String { database.folder.file("sweep") }

    var isShared: Bool { true }
}

/// PostgreSQL, raw: a session of its own per call, as the superuser.
struct RawPostgres: RawDatabase {
    let conninfo: String

    func execute(_ sql: String) throws { try PostgresConnection(conninfo: conninfo).execute(sql) }

    func rows(_ sql: String) throws -> [[String?]] {
        let result = try PostgresConnection(conninfo: conninfo).query(sql)
        return result.rows { row in (0..<Int32(result.columnCount)).map { row.isNull($0) ? nil : row.text($0) } }
    }
}
