import APNsHTTP2
import APNsJWT
import LiveActivityCore

/// The sweep's real sender: one `APNsClient` (one multiplexed HTTP/2 connection) per APNs
/// environment that has pushes this sweep, created on first use.
public final class CurlPushSender: PushSender {
    private let configuration: Configuration
    private let topic: String
    private var clients: [(environment: APNsEnvironment, client: APNsClient)] = []
    private var token = ProviderToken(jwt: "", issuedAt: 0)

    public init(configuration: Configuration, topic: String) {
        self.configuration = configuration
        self.topic = topic
    }

    public func setProviderToken(_ jwt: String) {
        token = ProviderToken(jwt: jwt, issuedAt: 0)
        for entry in clients { entry.client.providerToken = token }
    }

    public func enqueue(_ push: PushRequest) {
        guard let client = try? client(for: push.environment) else {
            failedToStart.append(PushResult(id: push.id, status: nil, transportError: "libcurl could not start"))
            return
        }
        client.submit(APNsPush(id: push.id, token: push.token, expiration: push.expiration))
    }

    private var failedToStart: [PushResult] = []

    public func nextResults() throws -> [PushResult] {
        if !failedToStart.isEmpty {
            defer { failedToStart.removeAll() }
            return failedToStart
        }
        while true {
            let busy = clients.filter { !$0.client.isIdle }
            if busy.isEmpty { return [] }
            // With one environment busy, wait on it; with both, take turns in short slices.
            let wait = busy.count == 1 ? 1000 : 20
            var results: [PushResult] = []
            for entry in busy {
                for completion in try entry.client.poll(timeoutMilliseconds: wait) {
                    results.append(Self.result(completion))
                }
            }
            if !results.isEmpty { return results }
        }
    }

    public func cancelAll() {
        for entry in clients { entry.client.cancelAll() }
    }

    private func client(for environment: APNsEnvironment) throws -> APNsClient {
        if let existing = clients.first(where: { $0.environment == environment }) { return existing.client }
        var options = APNsClientOptions(environment: environment, topic: topic, baseURLOverride: configuration.apnsHost)
        options.caFile = configuration.apnsCAFile
        options.maxInFlight = configuration.apnsConcurrency
        options.requestTimeout = Double(configuration.apnsTimeoutSeconds)
        options.connectTimeout = Double(min(10, configuration.apnsTimeoutSeconds))
        let client = try APNsClient(options: options, providerToken: token)
        clients.append((environment, client))
        return client
    }

    static func result(_ completion: APNsCompletion) -> PushResult {
        switch completion.outcome {
        case .answered(let response):
            PushResult(
                id: completion.id, status: response.status, reason: response.reason, timestamp: response.timestamp,
                apnsID: response.apnsID)
        case .transportFailure(let code, let message):
            PushResult(
                id: completion.id, status: nil,
                transportError: code == PushOutcome.timeoutCode ? "Timeout" : "Transport(\(code)): \(message)")
        }
    }
}
