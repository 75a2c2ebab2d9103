extension PostgresError {
    /// What a failure means for the caller, named so the store can map it onto its own fault
    /// (https://www.postgresql.org/docs/current/errcodes-appendix.html).
    package enum Kind: Sendable, Equatable, CustomStringConvertible {
        /// The server cannot be reached or went away: connection refused or lost (class 08 but
        /// 08P01), shut down or crashed (57P01, 57P02), not accepting connections yet (57P03), or a
        /// call that got no answer within its bound. The connection is broken: open a new one.
        case unreachable
        /// The server refused the credentials: a wrong or missing password (28P01), or a login
        /// pg_hba.conf does not allow (28000).
        case authentication
        /// The database named does not exist (3D000).
        case missingDatabase
        /// The role named does not exist (28000 "role ... does not exist"; a server that checks
        /// passwords answers 28P01 instead, so as not to tell which roles exist).
        case missingRole
        /// The role lacks a grant the statement needs (42501), including CONNECT on the database.
        case insufficientPrivilege
        /// The server refuses writes (25006 read_only_sql_transaction): a standby, or a host
        /// demoted by a failover. The connection is closed: reconnect to find the primary.
        case readOnly
        /// Another session is in the way and a retry may pass: a lock not available (55P03), a
        /// serialization failure (40001), a deadlock (40P01), too many connections (53300), a
        /// statement cancelled by a timeout (57014).
        case busy
        /// The server ran out of a resource: disk (53100), memory (53200), another limit (class 53
        /// but 53300).
        case full
        /// The server found damaged data (XX001, XX002).
        case corrupt
        /// An integrity constraint refused the row (class 23; 23505 is a unique violation).
        case constraintViolation
        /// The connection string is not one libpq can parse, or names an option wrongly.
        case invalidConnectionString
        /// Anything else: a syntax error, a missing table, a misuse of the client.
        case other

        /// The kind of a server error, by its SQLSTATE.
        init(sqlstate: String) {
            switch sqlstate {
            case "08P01": self = .other  // protocol_violation: this client's mistake, the connection stays
            case "57P01", "57P02", "57P03": self = .unreachable
            case "28P01", "28000": self = .authentication
            case "3D000": self = .missingDatabase
            case "42501": self = .insufficientPrivilege
            case "25006": self = .readOnly
            case "55P03", "40001", "40P01", "53300", "57014": self = .busy
            case "XX001", "XX002": self = .corrupt
            default:
                switch sqlstate.prefix(2) {
                case "08": self = .unreachable
                case "53": self = .full
                case "23": self = .constraintViolation
                default: self = .other
                }
            }
        }

        package var description: String {
            switch self {
            case .unreachable: "unreachable"
            case .authentication: "authentication failed"
            case .missingDatabase: "no such database"
            case .missingRole: "no such role"
            case .insufficientPrivilege: "insufficient privilege"
            case .readOnly: "read-only"
            case .busy: "busy"
            case .full: "out of resources"
            case .corrupt: "corrupt"
            case .constraintViolation: "constraint violation"
            case .invalidConnectionString: "invalid connection string"
            case .other: "other"
            }
        }
    }
}
