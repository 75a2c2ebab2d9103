import APNsHTTP2
import APNsJWT
import LiveActivityCore

/// The sweep's real sender: one `APNsClient` (one multiplexed HTTP/2 connection) per APNs
/// environment that has pushes this sweep, created on first use.
public final class CurlPushSender: PushSender {
    private let settings: APNsClientSettings
    private let topic: String
    private var clients: [(environment: APNsEnvironment, client: APNsClient)] = []
    /// Set by the sweep before its first push.
    private var token: ProviderToken?

    public init(settings: APNsClientSettings, topic: String) {
        self.settings = settings
        self.topic = topic
    }

    public func setProviderToken(_ token: ProviderToken) {
        self.token = token
        for entry in clients { entry.client.providerToken = token }
    }

    public func enqueue(_ push: APNsPush, to environment: APNsEnvironment) {
        guard let client = try? client(for: environment) else {
            failedToStart.append(APNsCompletion(id: push.id, answer: .failed(.failedInit)))
            return
        }
        client.submit(push)
    }

    private var failedToStart: [APNsCompletion] = []

    public func nextCompletions() throws -> [APNsCompletion] {
        if !failedToStart.isEmpty {
            defer { failedToStart.removeAll() }
            return failedToStart
        }
        while true {
            let busy = clients.filter { !$0.client.isIdle }
            if busy.isEmpty { return [] }
            // With one environment busy, wait on it; with both, take turns in short slices.
            let wait = busy.count == 1 ? 1000 : 20
            var completions: [APNsCompletion] = []
            for entry in busy {
                completions += try entry.client.poll(timeoutMilliseconds: wait)
            }
            if !completions.isEmpty { return completions }
        }
    }

    public func cancelAll() {
        for entry in clients { entry.client.cancelAll() }
    }

    private func client(for environment: APNsEnvironment) throws -> APNsClient {
        if let existing = clients.first(where: { $0.environment == environment }) { return existing.client }
        guard let token else { preconditionFailure("setProviderToken before the first push") }
        let client = try APNsClient(options: settings.options(for: environment, topic: topic), providerToken: token)
        clients.append((environment, client))
        return client
    }
}
