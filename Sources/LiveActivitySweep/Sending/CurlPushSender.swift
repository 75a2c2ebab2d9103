import APNsHTTP2
import APNsJWT
import LiveActivityDomain

/// The sweep's real sender: one `APNsClient` per APNs environment that has pushes this sweep,
/// created on first use; each multiplexes its pushes over one HTTP/2 connection for a small run
/// and a few for a large backlog (`APNsClient`).
public final class CurlPushSender: PushSender {
    private let settings: APNsClientSettings
    private var clients: [(environment: APNsEnvironment, client: APNsClient)] = []
    /// Set by the sweep before its first push.
    private var token: ProviderToken?
    private var deadline: Deadline?
    /// Pushes whose client could not be made: answered at the next poll.
    private var failedToStart: [APNsCompletion] = []

    public init(settings: APNsClientSettings) {
        self.settings = settings
    }

    public func setProviderToken(_ token: ProviderToken) {
        self.token = token
        for entry in clients { entry.client.providerToken = token }
    }

    public func setDeadline(_ deadline: Deadline) {
        self.deadline = deadline
        for entry in clients { entry.client.deadline = deadline }
    }

    public func expect(_ count: Int, to environment: APNsEnvironment) {
        try? client(for: environment).expectedPushes = count
    }

    public var queuedCount: Int { clients.reduce(0) { $0 + $1.client.queuedCount } }

    public func enqueue(_ push: APNsPush, to environment: APNsEnvironment) {
        guard let client = try? client(for: environment) else {
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
        // With one environment busy, wait on it; with both, take turns in short slices.
        let wait = busy.count == 1 ? timeoutMilliseconds : min(20, timeoutMilliseconds)
        var completions: [APNsCompletion] = []
        for entry in busy {
            completions += try entry.client.poll(timeoutMilliseconds: wait)
        }
        return completions
    }

    public var isIdle: Bool { failedToStart.isEmpty && clients.allSatisfy { $0.client.isIdle } }

    public func cancel(_ scope: FaultScope) -> [Int] {
        guard let client = clients.first(where: { $0.environment == scope.environment })?.client else { return [] }
        guard let kind = scope.kind else { return client.cancelAll() }
        return client.cancel { $0.kind == kind }
    }

    public func withdrawQueued() -> [Int] {
        clients.flatMap { $0.client.withdrawQueued() }
    }

    private func client(for environment: APNsEnvironment) throws -> APNsClient {
        if let existing = clients.first(where: { $0.environment == environment }) { return existing.client }
        guard let token else { preconditionFailure("setProviderToken before the first push") }
        let client = try APNsClient(options: settings.options(for: environment), providerToken: token)
        client.deadline = deadline
        clients.append((environment, client))
        return client
    }
}
