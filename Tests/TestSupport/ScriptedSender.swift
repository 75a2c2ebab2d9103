import LiveActivitySweep

/// A `PushSender` that answers from a script instead of a network, for sweep logic tests.
/// Answers come back in batches of `batch`, in the order pushes were queued.
public final class ScriptedSender: PushSender {
    /// (status, reason, timestamp) per token; tokens without a script answer 200.
    public var script: [String: [(status: Int?, reason: String?, timestamp: Int64?)]] = [:]
    public private(set) var sent: [(push: PushRequest, providerToken: String)] = []
    public private(set) var cancelled = false
    public var batch = 7
    private var queue: [PushRequest] = []
    private var token = ""

    public init() {}

    public func setProviderToken(_ token: String) { self.token = token }

    public func enqueue(_ push: PushRequest) { queue.append(push) }

    public func nextResults() -> [PushResult] {
        let taken = queue.prefix(batch)
        queue.removeFirst(taken.count)
        return taken.map { push in
            sent.append((push, token))
            var answers = script[push.token.hex] ?? []
            let answer = answers.isEmpty ? (status: 200, reason: nil, timestamp: nil) : answers.removeFirst()
            if !answers.isEmpty || script[push.token.hex] != nil { script[push.token.hex] = answers }
            return PushResult(
                id: push.id, status: answer.status, reason: answer.reason, timestamp: answer.timestamp,
                transportError: answer.status == nil ? "connection refused" : nil)
        }
    }

    public func cancelAll() {
        cancelled = true
        queue.removeAll()
    }
}
