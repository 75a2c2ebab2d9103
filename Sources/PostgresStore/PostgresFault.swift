import LiveActivityStore
import PostgresClient

/// PostgreSQL's failures (SQLSTATEs, libpq's refusals at connect) as the backend-neutral
/// `StoreFault`, with what the operator should do about each. Never the password or a bound
/// value: `PostgresError` holds neither.
extension StoreFault {
    init(postgres error: PostgresError, location: String) {
        let kind: Kind
        let advice: String
        switch error.kind {
        case .unreachable:
            kind = .unreachable
            advice =
                "check that the server in LIVEACTIVITY_DB is up and reachable from this host; requests are refused until it is"
        case .authentication:
            kind = .authentication
            advice = "check the role and its password (libpq's password file, mode 0600) for LIVEACTIVITY_DB"
        case .missingDatabase, .missingRole:
            kind = .noSuchDatabase
            advice = "create the database and roles docs/POSTGRESQL.md names, or correct LIVEACTIVITY_DB"
        case .insufficientPrivilege:
            kind = .permissionDenied
            advice = "grant the role what docs/POSTGRESQL.md lists"
        case .readOnly:
            kind = .readOnly
            advice = "the server is a standby; list every host in LIVEACTIVITY_DB with target_session_attrs=read-write"
        case .busy:
            kind = .busy
            advice = "another session held a lock, or the server's connections are all in use"
        case .full:
            kind = .full
            advice = "the server ran out of disk or memory"
        case .corrupt:
            kind = .corrupt
            advice = "the server found damaged data; restore from a backup or the standby"
        case .constraintViolation, .other, .invalidConnectionString:
            kind = .other(code: error.sqlstate ?? "none")
            advice = "see PostgreSQL's message"
        }
        self.init(kind, message: error.message, advice: advice)
    }
}
