import APNsHTTP2
import APNsJWT
import LiveActivityDomain

/// The sweep's real sender: one `APNsClient` - a connection pool - per signing identity and APNs
/// environment that has pushes this sweep, created on first use, each with that identity's
/// provider token (SPEC 6 "Several apps": APNs binds a connection to the team and key of its
/// first push, and one key signs for every app of its team, so the apps of one key share a
/// pool). Each multiplexes its pushes over one HTTP/2 connection for a small run and a few for a
/// large backlog (`APNsClient`).
public final class CurlPushSender: PushSender {
    private let settings: APNsClientSettings
    /// One client per pool, in the order they were made.
    private var clients: [(pool: ConnectionPool, client: APNsClient)] = []
    /// Set by the sweep before the first push of each identity.
    private var tokens: [SigningIdentity: ProviderToken] = [:]
    private var deadline: Deadline?
    /// Pushes whose client could not be made: answered at the next poll.
    private var failedToStart: [APNsCompletion] = []

    public init(settings: APNsClientSettings) {
        self.settings = settings
    }

    /// Loads libcurl: only a sweep with pushes to send maps it (one line, `SharedLibraryError`,
    /// where it cannot be loaded).
    public func prepare() throws {
        try CurlLibrary.load()
    }

    public func setProviderToken(_ token: ProviderToken, for identity: SigningIdentity) {
        tokens[identity] = token
        for entry in clients where entry.pool.identity == identity { entry.client.providerToken = token }
    }

    public func setDeadline(_ deadline: Deadline) {
        self.deadline = deadline
        for entry in clients { entry.client.deadline = deadline }
    }

    public func expect(_ count: Int, to environment: APNsEnvironment, as identity: SigningIdentity) {
        try? client(for: ConnectionPool(identity: identity, environment: environment)).expectedPushes = count
    }

    public var queuedCount: Int { clients.reduce(0) { $0 + $1.client.queuedCount } }

    public func enqueue(_ push: APNsPush, to environment: APNsEnvironment, as identity: SigningIdentity) {
        guard let client = try? client(for: ConnectionPool(identity: identity, environment: environment)) else {
            failedToStart.append(APNsCompletion(id: push.id, answer: .failed(.failedInit)))
            return
        }
        client.submit(push)
    }

    public func poll(timeoutMilliseconds: Int) throws -> [APNsCompletion] {
        if !failedToStart.isEmpty {
            defer { failedToStart.removeAll() }
            return failedToStart
        }
        let busy = clients.filter { !$0.client.isIdle }
        // With one pool busy, wait on it; with several, take turns in short slices.
        let wait = busy.count == 1 ? timeoutMilliseconds : min(20, timeoutMilliseconds)
        var completions: [APNsCompletion] = []
        for entry in busy {
            completions += try entry.client.poll(timeoutMilliseconds: wait)
        }
        return completions
    }

    public var isIdle: Bool { failedToStart.isEmpty && clients.allSatisfy { $0.client.isIdle } }

    public func cancel(_ scope: FaultScope, bundleID: String) -> [Int] {
        clients.filter { $0.pool.environment == scope.environment }.flatMap { entry in
            entry.client.cancel { $0.bundleID == bundleID && (scope.kind == nil || $0.kind == scope.kind) }
        }
    }

    public func cancelAll() -> [Int] { clients.flatMap { $0.client.cancelAll() } }

    public func withdrawQueued() -> [Int] {
        clients.flatMap { $0.client.withdrawQueued() }
    }

    /// The pools made so far, in the order they were: which identity sends to which environment.
    public var pools: [(identity: SigningIdentity, environment: APNsEnvironment)] {
        clients.map { ($0.pool.identity, $0.pool.environment) }
    }

    private func client(for pool: ConnectionPool) throws -> APNsClient {
        if let existing = clients.first(where: { $0.pool == pool }) { return existing.client }
        guard let token = tokens[pool.identity] else {
            preconditionFailure("setProviderToken for \(pool.identity) before its first push")
        }
        let client = try APNsClient(options: settings.options(for: pool.environment), providerToken: token)
        client.deadline = deadline
        clients.append((pool, client))
        return client
    }
}
