import Foundation

/// Streaming replication between test clusters: PostgreSQL's own (pg_basebackup, standby.signal,
/// pg_promote), for the tests where a primary is lost.
extension PostgresCluster {
    /// A hot standby of this running server in a folder of its own, started and streaming.
    /// `synchronous`: this server's commits wait until the standby has them
    /// (`synchronous_standby_names`), so a commit answered is one the standby holds when promoted.
    public func makeStandby(synchronous: Bool = false) throws -> PostgresCluster {
        let directory = TemporaryDirectory("pg-standby")
        try Self.script(["standby", folder, directory.path])
        let standby = PostgresCluster(directory: directory)
        try standby.start()
        if synchronous {
            try psql("ALTER SYSTEM SET synchronous_standby_names = 'standby'")
            try psql("SELECT pg_reload_conf()")
        }
        let state = synchronous ? "sync" : "async"
        try waitFor("the standby streaming (\(state))") {
            try psql(
                "SELECT count(*) FROM pg_stat_replication WHERE application_name = 'standby' AND state = 'streaming' AND sync_state = '\(state)'"
            ) == "1"
        }
        return standby
    }

    /// Promotes this standby to a primary and waits until it accepts writes.
    public func promote() throws {
        let promoted = try psql("SELECT pg_promote(true, 60)")
        guard promoted == "t" else { throw ClusterError("pg_promote did not finish within 60 s: \(promoted)") }
        try waitFor("the promoted server out of recovery") { try psql("SELECT pg_is_in_recovery()") == "f" }
    }

    /// Waits until this standby has replayed everything `primary` has written so far.
    public func waitUntilCaughtUp(with primary: PostgresCluster) throws {
        let written = try primary.psql("SELECT pg_current_wal_lsn()")
        try waitFor("the standby's replay to reach \(written)") {
            try psql("SELECT pg_last_wal_replay_lsn() >= '\(written)'::pg_lsn") == "t"
        }
    }

    /// Polls `condition` every 100 ms for up to 60 s, then fails naming `what`.
    func waitFor(_ what: String, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if try condition() { return }
            usleep(100_000)
        }
        throw ClusterError("\(what): not within 60 s (\(folder))")
    }
}
