import LiveActivityDomain
import Testing

@testable import PostgresStore

/// `LIVEACTIVITY_DB`'s rule for a PostgreSQL URI, decided when it is read, before any connection
/// (no server needed): a server reached over TCP on another machine must be verified
/// (`sslmode=verify-full`). Issue 48 point 4: a host name that merely began `127.` counted as
/// loopback, and `service=` (a service file that may name any host) was never looked at.
@Suite("PostgreSQL URI's TLS rule") struct PostgresURIRuleTests {
    static let secret = "hunter2-not-to-be-seen"

    /// The refusal `uri` meets, nil when it is accepted.
    func refusal(_ uri: String) -> ConfigurationError? {
        do {
            _ = try PostgresEngine(uri: uri)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        "postgresql://sweep:\(secret)@127.evil.example/liveactivity",
        "postgresql://sweep@127.0.0.1.evil.example/liveactivity",
        "postgresql://sweep@127.0.0.1:1,127.evil.example:1/liveactivity",
        "postgresql://sweep@/liveactivity?host=/run/postgresql,127.evil.example&port=5432",
        "postgresql://sweep@[::1]:5432,db.example.net:5432/liveactivity",
    ])
    func aHostThatOnlyLooksLocalMustBeVerified(_ uri: String) {
        let said = refusal(uri)?.description ?? "accepted"
        #expect(said.contains("LIVEACTIVITY_DB") && said.contains("sslmode=verify-full"), "\(said)")
        #expect(!said.contains(Self.secret), "\(said)")
        #expect(refusal(uri + (uri.contains("?") ? "&" : "?") + "sslmode=verify-full") == nil, "verified, it is taken")
    }

    /// Loopback as `inet_pton` reads it (127.0.0.0/8, ::1, also in a URI's brackets), `localhost`,
    /// and a unix socket's folder (a path, also percent-encoded) are not on a network.
    @Test(arguments: [
        "postgresql://sweep@127.0.0.1/liveactivity", "postgresql://sweep@127.1.2.3:5433/liveactivity",
        "postgresql://sweep@[::1]:5433/liveactivity", "postgresql://sweep@/liveactivity?host=::1",
        "postgresql://sweep@localhost/liveactivity", "postgresql://sweep@%2Frun%2Fpostgresql/liveactivity",
        "postgresql:///liveactivity?host=/run/postgresql", "postgresql:///liveactivity",
        "postgresql://sweep@db.example.net/liveactivity?hostaddr=127.0.0.1",
        "postgresql://sweep@127.0.0.1:5432,%2Frun%2Fpostgresql:5432/liveactivity",
    ])
    func aLocalServerNeedsNoCertificate(_ uri: String) {
        #expect(refusal(uri) == nil, "\(refusal(uri)?.description ?? "")")
    }

    /// A service file may name any host, which this rule cannot see: `service=` is refused,
    /// verified or not.
    @Test(arguments: [
        "postgresql:///liveactivity?service=liveactivity",
        "postgresql://sweep:\(secret)@/liveactivity?service=liveactivity&sslmode=verify-full",
        "postgresql://sweep@127.0.0.1/liveactivity?service=liveactivity",
    ])
    func aServiceIsRefused(_ uri: String) {
        let said = refusal(uri)?.description ?? "accepted"
        #expect(said.contains("LIVEACTIVITY_DB") && said.contains("service="), "\(said)")
        #expect(!said.contains(Self.secret), "\(said)")
        #expect(!said.contains("\n"), "\(said)")
    }
}
