import APNsHTTP2
import LiveActivityDomain
import LiveActivitySweep

/// A `PushSender` that answers from a script instead of a network, for sweep logic tests.
/// Answers come back in batches of `batch`, in the order pushes were queued.
public final class ScriptedSender: PushSender {
    /// Answers per token hex, used up in order; tokens without one (left) answer 200.
    public var script: [String: [APNsAnswer]] = [:]
    /// Answers per environment for tokens without a script of their own, used up in order.
    public var environmentScript: [APNsEnvironment: [APNsAnswer]] = [:]
    public private(set) var sent:
        [(push: APNsPush, environment: APNsEnvironment, identity: SigningIdentity, providerToken: ProviderToken?)] = []
    public private(set) var cancelled: [FaultScope] = []
    public private(set) var withdrawn = 0
    /// What the sweep said it would send, per environment.
    public private(set) var expected: [APNsEnvironment: Int] = [:]
    public private(set) var deadline: Deadline?
    public var batch = 7
    /// How many queued pushes count as already in flight: `withdrawQueued` leaves them to be answered.
    public var inFlight = 0
    /// Called before each batch is answered (a test's chance to change the database mid-sweep).
    public var beforeBatch: () -> Void = {}
    private var queue: [(push: APNsPush, environment: APNsEnvironment, identity: SigningIdentity)] = []
    private var tokens: [SigningIdentity: ProviderToken] = [:]

    public init() {}

    public func setProviderToken(_ token: ProviderToken, for identity: SigningIdentity) { tokens[identity] = token }

    public func setDeadline(_ deadline: Deadline) { self.deadline = deadline }

    public func enqueue(_ push: APNsPush, to environment: APNsEnvironment, as identity: SigningIdentity) {
        queue.append((push, environment, identity))
    }

    public func expect(_ count: Int, to environment: APNsEnvironment, as identity: SigningIdentity) {
        expected[environment, default: 0] += count
    }

    public var queuedCount: Int { queue.count }

    public func poll(timeoutMilliseconds: Int) -> [APNsCompletion] {
        beforeBatch()
        let taken = queue.prefix(batch)
        queue.removeFirst(taken.count)
        return taken.map { push, environment, identity in
            sent.append((push, environment, identity, tokens[identity]))
            return APNsCompletion(id: push.id, answer: answer(for: push.token.hex, in: environment))
        }
    }

    private func answer(for token: String, in environment: APNsEnvironment) -> APNsAnswer {
        if let answers = script[token], !answers.isEmpty {
            let first = answers[0]
            script[token] = Array(answers.dropFirst())
            return first
        }
        if var answers = environmentScript[environment], !answers.isEmpty {
            let first = answers.removeFirst()
            environmentScript[environment] = answers
            return first
        }
        return .status(200)
    }

    public var isIdle: Bool { queue.isEmpty }

    public func cancel(_ scope: FaultScope, bundleID: String) -> [Int] {
        cancelled.append(scope)
        let covered = { (entry: (push: APNsPush, environment: APNsEnvironment, identity: SigningIdentity)) in
            entry.push.bundleID == bundleID && entry.environment == scope.environment
                && (scope.kind == nil || scope.kind == entry.push.kind)
        }
        let dropped = queue.filter(covered).map(\.push.id)
        queue.removeAll(where: covered)
        return dropped
    }

    public func cancelAll() -> [Int] {
        defer { queue.removeAll() }
        return queue.map(\.push.id)
    }

    public func withdrawQueued() -> [Int] {
        let taken = queue.dropFirst(inFlight)
        queue.removeLast(taken.count)
        withdrawn += taken.count
        return taken.map(\.push.id)
    }
}

extension APNsAnswer {
    /// An answer with `status`, APNs's `reason` and (410) `timestamp`, for scripts.
    public static func status(_ status: Int, _ reason: String? = nil, timestamp: Int64? = nil) -> APNsAnswer {
        .answered(APNsResponse(status: status, reason: reason, timestamp: timestamp))
    }
}
