import APNsHTTP2
import LiveActivityCore
import LiveActivitySweep

/// A `PushSender` that answers from a script instead of a network, for sweep logic tests.
/// Answers come back in batches of `batch`, in the order pushes were queued.
public final class ScriptedSender: PushSender {
    /// Answers per token hex, used up in order; tokens without one (left) answer 200.
    public var script: [String: [APNsAnswer]] = [:]
    public private(set) var sent: [(push: APNsPush, environment: APNsEnvironment, providerToken: ProviderToken?)] = []
    public private(set) var cancelled = false
    public var batch = 7
    private var queue: [(push: APNsPush, environment: APNsEnvironment)] = []
    private var token: ProviderToken?

    public init() {}

    public func setProviderToken(_ token: ProviderToken) { self.token = token }

    public func enqueue(_ push: APNsPush, to environment: APNsEnvironment) { queue.append((push, environment)) }

    public func nextCompletions() -> [APNsCompletion] {
        let taken = queue.prefix(batch)
        queue.removeFirst(taken.count)
        return taken.map { push, environment in
            sent.append((push, environment, token))
            var answers = script[push.token.hex] ?? []
            let answer = answers.isEmpty ? .status(200) : answers.removeFirst()
            if script[push.token.hex] != nil { script[push.token.hex] = answers }
            return APNsCompletion(id: push.id, answer: answer)
        }
    }

    public func cancelAll() {
        cancelled = true
        queue.removeAll()
    }
}

extension APNsAnswer {
    /// An answer with `status`, APNs's `reason` and (410) `timestamp`, for scripts.
    public static func status(_ status: Int, _ reason: String? = nil, timestamp: Int64? = nil) -> APNsAnswer {
        .answered(APNsResponse(status: status, reason: reason, timestamp: timestamp))
    }
}
