import LiveActivityDomain
import LiveActivityStore
import PostgresClient

/// The engine where one host is not enough (SPEC 4): one PostgreSQL database that every host's
/// responder and sweep share, reached through libpq. `LIVEACTIVITY_DB` is a `postgresql://` or
/// `postgres://` URI in libpq's syntax, several hosts with `target_session_attrs=read-write`
/// included (a promoted standby is found by the next connection, without a restart).
public struct PostgresEngine: StoreEngine {
    let conninfo: PostgresConninfo

    /// How long opening a connection may take (every host of the URI, each in turn).
    static let connectTimeout: Duration = .seconds(5)
    /// How long one statement may wait for its answer before the connection counts as lost.
    static let callTimeout: Duration = .seconds(20)

    /// Checks `uri` (one line naming `LIVEACTIVITY_DB`, never its password, when libpq cannot read it).
    public init(uri: String) throws(ConfigurationError) {
        // Loaded here, at the first sign of PostgreSQL, not linked: a program on SQLite never maps it.
        do { try PostgresLibrary.load() } catch {
            throw .unloadableLibrary(needed: "LIVEACTIVITY_DB names a PostgreSQL database", error: error)
        }
        do {
            conninfo = try PostgresConninfo(uri)
        } catch {
            throw .malformed(name: "LIVEACTIVITY_DB", expected: "a PostgreSQL URI libpq reads (\(error.message))")
        }
        // A service file fills in what the URI leaves out, any host included, where the rule
        // below cannot see it: the URI names its hosts itself.
        if conninfo.value("service") != nil || conninfo.value("servicefile") != nil {
            throw .malformed(
                name: "LIVEACTIVITY_DB",
                expected: "a URI without service= or servicefile= (a service file may name any host, which the check "
                    + "for sslmode=verify-full cannot see); write the hosts, the database and sslmode into the URI")
        }
        if let host = Self.unverifiedRemoteHost(conninfo) {
            throw .malformed(
                name: "LIVEACTIVITY_DB",
                expected: "sslmode=verify-full for a server reached over the network (\(OutsideText.quoted(host, limit: 80)) "
                    + "is reached over TCP without verifying its certificate, so a machine on the path could pose as it "
                    + "and be given the password); add ?sslmode=verify-full and the server's CA certificate "
                    + "(~/.postgresql/root.crt of each program's user, or sslrootcert=)")
        }
    }

    /// A host of the URI that libpq reaches over TCP on another machine, when the URI does not
    /// make libpq verify the server's certificate and name (`sslmode=verify-full`): libpq's
    /// default, `prefer`, falls back to cleartext whenever the server on the path declines TLS.
    /// Every host of the URI is looked at; one not on this machine is enough.
    static func unverifiedRemoteHost(_ conninfo: PostgresConninfo) -> String? {
        guard conninfo.value("sslmode") != "verify-full" else { return nil }
        let hosts = conninfo.list("host")
        let addresses = conninfo.list("hostaddr")
        for index in 0..<max(hosts.count, addresses.count) {
            let name = index < hosts.count ? hosts[index] : ""
            let address = index < addresses.count ? addresses[index] : ""
            // With hostaddr, that address is what libpq connects to; else the name (a path: a socket).
            if isOnThisMachine(address.isEmpty ? name : address) { continue }
            return name.isEmpty ? address : name
        }
        return nil
    }

    /// Whether libpq reaches `host` (an entry of `host` or `hostaddr`) without a network: none
    /// (libpq's socket), a unix socket's folder (a path; `@`, Linux's abstract namespace), the
    /// name `localhost`, or a loopback address as `inet_pton` reads it - 127.0.0.0/8 or ::1, in a
    /// URI's brackets or not. A name that merely begins `127.` is a name like any other.
    static func isOnThisMachine(_ host: String) -> Bool {
        if host.isEmpty || host.hasPrefix("/") || host.hasPrefix("@") || host.lowercased() == "localhost" { return true }
        let literal = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return IPAddress(literal)?.isLoopback == true
    }

    /// Whether `value` names a PostgreSQL database rather than a SQLite file.
    public static func names(_ value: String) -> Bool {
        value.hasPrefix("postgresql://") || value.hasPrefix("postgres://")
    }

    /// What to write instead, when `value` is a PostgreSQL connection string in a form this
    /// engine does not take: libpq's `key=value` form (its first word one of libpq's options,
    /// in any case, then `=`, spaces around it allowed, as libpq reads it), or the scheme
    /// without `//` (`postgresql:db`, `postgres:/x`, in any case). nil for anything else. Such a
    /// value is no file's name: taken for one, it was printed whole and named SQLite files.
    public static func otherForm(_ value: String) -> String? {
        let text = value.drop { $0.isWhitespace }
        let word = text.prefix { !$0.isWhitespace && $0 != "=" }
        let keyword = word.lowercased()
        if libpqKeywords.contains(keyword), text[word.endIndex...].first(where: { !$0.isWhitespace }) == "=" {
            return "libpq's key=value form (it begins \(keyword)=); write it as a postgresql:// URI"
        }
        let lowered = text.prefix(11).lowercased()
        if lowered.hasPrefix("postgresql:") || lowered.hasPrefix("postgres:") {
            return "a postgresql: or postgres: scheme without // after it"
        }
        return nil
    }

    /// libpq's connection options (PostgreSQL 18's documentation, older ones' included).
    static let libpqKeywords: Set<String> = [
        "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "require_auth", "channel_binding",
        "connect_timeout", "client_encoding", "options", "application_name", "fallback_application_name", "keepalives",
        "keepalives_idle", "keepalives_interval", "keepalives_count", "tcp_user_timeout", "replication", "gssencmode",
        "sslmode", "requiressl", "sslnegotiation", "sslcompression", "sslcert", "sslkey", "sslkeylogfile",
        "sslpassword", "sslcertmode", "sslrootcert", "sslcrl", "sslcrldir", "sslsni", "requirepeer",
        "ssl_min_protocol_version", "ssl_max_protocol_version", "min_protocol_version", "max_protocol_version",
        "krbsrvname", "gsslib", "gssdelegation", "scram_client_key", "scram_server_key", "service", "servicefile",
        "target_session_attrs", "load_balance_hosts", "oauth_issuer", "oauth_client_id", "oauth_client_secret",
        "oauth_scope",
    ]

    /// The URI without its password.
    public var location: String { conninfo.redacted }

    public var defaultSweepFolder: String? { nil }

    public func openRegistrations() throws -> any RegistrationStatements {
        try PostgresStoreConnection(conninfo, program: "liveactivity-fcgi", migrating: true)
    }

    public func openSweep(migrating: Bool) throws -> any SweepStatements {
        try PostgresStoreConnection(conninfo, program: "liveactivity-sweep", migrating: migrating)
    }

    public func openOutcomeWriter() throws -> any SweepStatements {
        try PostgresStoreConnection(conninfo, program: "liveactivity-sweep outcomes", migrating: false, genericPlans: true)
    }

    public func openExisting() throws -> any SweepStatements {
        try PostgresStoreConnection(conninfo, program: "liveactivity-sweep", migrating: true)
    }

    /// The token in the database, where every host's sweep finds it; `sweepFolder` is not used.
    public func providerTokens(sweepFolder: String) -> any ProviderTokenStore {
        ProviderTokenTable(conninfo: conninfo)
    }
}
