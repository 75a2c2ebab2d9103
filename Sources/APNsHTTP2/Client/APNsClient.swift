import CCurl
import LiveActivityDomain

/// Sends APNs background pushes over HTTP/2 + TLS with one libcurl multi handle: multiplexed
/// connections to the host (one for a small run, a few for a large backlog, SPEC section 5.4),
/// as many streams in flight as the server allows (`InFlightWindow`), easy handles reused from a
/// pool the size of the window (only what differs set again before each push, `APNsTransfer`).
///
/// The caller drives it from one thread:
///
///     let client = try APNsClient(options: options, providerToken: token)
///     client.submit(contentsOf: pushes)
///     while let done = try client.next() { ... }      // or poll(timeoutMilliseconds:) for batches
///
/// Each push gets one answer (`APNsAnswer`). A stream that died without an answer for reasons
/// of the connection (GOAWAY'd, refused, closed mid-stream) is sent once more on its own before
/// it counts as failed. After a 403 ExpiredProviderToken, set `providerToken` and `submit` the
/// push again (it is sent with the new token). On a fault, `cancelAll()` drops every queued and
/// in-flight push; at a time budget, `withdrawQueued()` takes back what has not started.
public final class APNsClient {
    public let options: APNsClientOptions
    /// The token sent with every push started from now on; pushes already in flight keep theirs.
    public var providerToken: ProviderToken {
        didSet { authorization = providerToken.authorization }
    }
    /// When set, every push started from now on must end by its `finishBy`: its timeout is cut to
    /// the time left, and no push starts once it has passed (those stay queued for
    /// `withdrawQueued()`). The sweep's one `Deadline`, handed down as it is.
    public var deadline: Deadline?

    /// What the client did on its own, for tests and operators: answers that libcurl reported
    /// with an error after they were complete, and streams sent a second time.
    public struct Counters: Sendable, Equatable {
        public var answersDespiteError = 0
        public var resends = 0
    }
    public private(set) var counters = Counters()

    private var authorization: String
    private let multi: CurlMulti
    private let setup: TransferSetup
    private var queue = FIFOQueue<(push: APNsPush, isResend: Bool)>()
    private var finished = FIFOQueue<APNsCompletion>()
    /// Every transfer ever made (at most `maxInFlight`); `idle` holds the unattached ones.
    private var transfers: [APNsTransfer] = []
    private var idle: [APNsTransfer] = []
    private var running = 0
    private var window: InFlightWindow
    /// Transfers handed to libcurl that had not started at the last look (waiting for a stream
    /// or a connection); checked after every pass, so at most the few allowed plus the new ones.
    private var waiting: [APNsTransfer] = []
    /// Transfers started since their upload buffer was last looked at (`pass`).
    private var uploading: [APNsTransfer] = []
    /// Pushes finished since the window was last planned.
    private var finishedSinceLook = 0

    /// Sets up the multi handle; no connection is opened until the first push.
    public init(options: APNsClientOptions, providerToken: ProviderToken) throws(CurlError) {
        precondition(options.maxInFlight >= 1 && options.maxConnections >= 1, "window and connections must be positive")
        self.options = options
        self.providerToken = providerToken
        authorization = providerToken.authorization
        window = InFlightWindow(
            maxInFlight: options.maxInFlight, maxConnections: options.maxConnections,
            streamsPerConnection: options.streamsPerConnection, pushesPerConnection: options.pushesPerConnection)
        multi = try CurlMulti()
        // https://curl.se/libcurl/c/CURLMOPT_PIPELINING.html: multiplex transfers over HTTP/2.
        try multi.set(CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX, "CURLMOPT_PIPELINING")
        try multi.set(CURLMOPT_MAX_HOST_CONNECTIONS, window.connections, "CURLMOPT_MAX_HOST_CONNECTIONS")
        try multi.set(CURLMOPT_MAX_CONCURRENT_STREAMS, options.streamsPerConnection, "CURLMOPT_MAX_CONCURRENT_STREAMS")
        setup = try TransferSetup(options: options, sockets: multi.sockets)
    }

    deinit {
        // Detach every running transfer before the multi handle and the easy handles go.
        for transfer in transfers where transfer.push != nil { multi.remove(transfer.easy) }
    }

    // MARK: - Submitting

    /// Queues `push`; it starts when the window has room. `first` puts it ahead of the queue
    /// (a retry after a token renewal).
    public func submit(_ push: APNsPush, first: Bool = false) {
        if first {
            queue.prepend((push, false))
        } else {
            queue.append((push, false))
            expectedPushes = max(0, expectedPushes - 1)
        }
    }

    /// Queues `pushes` in order.
    public func submit(contentsOf pushes: some Sequence<APNsPush>) {
        let before = queue.count
        queue.append(contentsOf: pushes.lazy.map { ($0, false) })
        expectedPushes = max(0, expectedPushes - (queue.count - before))
    }

    /// Pushes the caller says it will submit, counted down as they come: a caller that queues
    /// a large run a few thousand at a time still gets the connections the whole run needs.
    public var expectedPushes = 0

    /// Pushes waiting for room in the window.
    public var queuedCount: Int { queue.count }
    /// Pushes handed to libcurl and not yet finished.
    public var inFlightCount: Int { running }
    /// Connections the client allows libcurl to the host now.
    public var connectionLimit: Int { window.connections }
    /// Pushes in flight whose request may still hold libcurl's upload buffer (not yet sent, or
    /// sent since the last pass): the rest hold none (`APNsTransfer.releaseUploadBuffer`).
    var uploadBuffersHeld: Int { transfers.count { $0.push != nil && $0.holdsUploadBuffer } }
    /// The sockets of the connections open now (`ConnectionSockets`).
    var connectionSockets: [Int32] { multi.sockets.descriptors }
    /// The most pushes it keeps in flight at the distance seen so far (`InFlightWindow`).
    public var coveringDepth: Int { window.coveringDepth }
    /// True when nothing is in flight or finished but not yet returned, and nothing queued can
    /// start (the queue is empty, or the deadline has passed).
    public var isIdle: Bool { running == 0 && finished.isEmpty && (queue.isEmpty || isPastDeadline) }

    private var isPastDeadline: Bool { deadline.map { ContinuousClock.now >= $0.finishBy } ?? false }

    // MARK: - Driving

    /// Runs the transfers until one finishes and returns it; nil once nothing is in flight and
    /// nothing queued can start. Throws only for libcurl faults of the multi handle itself, never
    /// for a push.
    public func next() throws(CurlError) -> APNsCompletion? {
        while true {
            if let completion = finished.popFirst() { return completion }
            if isIdle { return nil }
            try step(waitMilliseconds: 1000)
        }
    }

    /// Runs the transfers for up to `timeoutMilliseconds` (returning early when some finish)
    /// and returns every push that has finished, possibly none. For callers that write outcomes
    /// in batches; `isIdle` says when all is done.
    public func poll(timeoutMilliseconds: Int) throws(CurlError) -> [APNsCompletion] {
        if finished.isEmpty && !isIdle {
            try step(waitMilliseconds: timeoutMilliseconds)
        }
        return finished.removeAll()
    }

    /// Stops: drops the queue and aborts every push in flight (their HTTP/2 streams are reset;
    /// the connection stays for later use). Returns the ids of all those pushes, which have no
    /// answer; pushes that already finished are still returned by `next()`/`poll`.
    @discardableResult
    public func cancelAll() -> [Int] { cancel { _ in true } }

    /// Drops the queued and in-flight pushes `matching` says (one kind's, when a fault stopped
    /// that kind alone), returning their ids; the others go on.
    public func cancel(where matching: (APNsPush) -> Bool) -> [Int] {
        var cancelled: [Int] = []
        for transfer in transfers {
            guard let push = transfer.push, matching(push) else { continue }
            multi.remove(transfer.easy)
            transfer.detach()
            idle.append(transfer)
            cancelled.append(push.id)
            running -= 1
        }
        return cancelled + queue.remove { matching($0.push) }.map(\.push.id)
    }

    /// Takes back every push not yet handed to libcurl and returns their ids; pushes in flight
    /// go on. What a time budget does: nothing new is sent, nothing sent is abandoned.
    @discardableResult
    public func withdrawQueued() -> [Int] {
        queue.removeAll().map(\.push.id)
    }

    // MARK: - The loop

    /// Fills the window, lets libcurl work, waits up to `waitMilliseconds` if nothing finished.
    private func step(waitMilliseconds: Int) throws(CurlError) {
        try startQueued()
        try pass()
        collectFinished()
        guard finished.isEmpty else { return }
        let waitStarted = ContinuousClock.now
        try multi.poll(milliseconds: waitMilliseconds)
        if running > 0 { window.observeWait(ContinuousClock.now - waitStarted) }
        try pass()
        collectFinished()
    }

    /// Lets libcurl do what is ready, then frees the upload buffers of the requests it sent
    /// (`APNsTransfer.releaseUploadBuffer`): what a push in flight holds is then its easy handle
    /// and its 1 kB receive buffer.
    private func pass() throws(CurlError) {
        _ = try multi.sockets.corked { () throws(CurlError) in try multi.perform() }
        uploading.removeAll { $0.releaseUploadBuffer() }
    }

    /// Forgets the waiting transfers that have started or finished since the last look.
    private func lookAtWaiting() {
        waiting.removeAll { $0.push == nil || $0.easy.hasStarted }
    }

    /// The most pushes handed to libcurl between two of its passes. libcurl allocates a transfer's
    /// upload buffer (16 kB) as its request goes out, and the client frees it after the pass that
    /// sent it: a window filled in one pass (1,500 at 100 ms) would hold them all at once.
    static let startsPerPass = 100

    /// Moves queued pushes onto idle (or new) transfers until the window is full, letting libcurl
    /// send every `startsPerPass` of them.
    private func startQueued() throws(CurlError) {
        if let connections = window.plan(backlog: queue.count + running + expectedPushes) {
            try multi.set(CURLMOPT_MAX_HOST_CONNECTIONS, connections, "CURLMOPT_MAX_HOST_CONNECTIONS")
        }
        let timeout = Int(options.requestTimeout * 1000)
        lookAtWaiting()
        let depth = window.depth(inFlight: running, waiting: waiting.count, finished: finishedSinceLook)
        finishedSinceLook = 0
        var startedSincePass = 0
        // One look at the clock for the pushes started between two passes: a deadline's timeouts
        // need no finer grain than a pass (each push's own is cut to what was left then).
        var now = deadline == nil ? nil : ContinuousClock.now
        while running < depth, !queue.isEmpty {
            if startedSincePass == Self.startsPerPass {
                try pass()
                startedSincePass = 0
                if deadline != nil { now = ContinuousClock.now }
            }
            var timeoutMilliseconds = timeout
            if let deadline, let now {
                let leftMilliseconds = deadline.millisecondsLeft(at: now)
                guard leftMilliseconds > 0 else { return }
                timeoutMilliseconds = min(timeout, leftMilliseconds)
            }
            guard let (push, isResend) = queue.popFirst() else { return }
            let transfer: APNsTransfer
            if let reused = idle.popLast() {
                transfer = reused
            } else {
                transfer = try APNsTransfer(bodyLimit: options.responseBodyLimit)
                transfers.append(transfer)
            }
            do {
                try transfer.prepare(
                    push, isResend: isResend, setup: setup, authorization: authorization,
                    timeoutMilliseconds: timeoutMilliseconds)
                try multi.add(transfer.easy)
            } catch {
                transfer.detach()
                idle.append(transfer)
                queue.prepend((push, isResend))
                throw error
            }
            running += 1
            startedSincePass += 1
            waiting.append(transfer)
            uploading.append(transfer)
        }
    }

    private func collectFinished() {
        let now = ContinuousClock.now
        for (handle, result) in multi.finishedTransfers() {
            guard let opaque = CurlEasy.privatePointer(of: handle) else { continue }
            let transfer = Unmanaged<APNsTransfer>.fromOpaque(opaque).takeUnretainedValue()
            guard let push = transfer.push else { continue }
            let verdict = transfer.finished(result: result).verdict { transfer.response }
            multi.remove(transfer.easy)
            transfer.push = nil
            idle.append(transfer)
            running -= 1
            finishedSinceLook += 1
            switch verdict {
            case .resend:
                counters.resends += 1
                queue.prepend((push, true))
            case .answer(let answer, let afterError):
                if afterError { counters.answersDespiteError += 1 }
                if case .answered = answer {
                    window.isWarm = true
                    window.observe(requestSeconds: transfer.easy.requestSeconds, at: now)
                }
                finished.append(APNsCompletion(id: push.id, answer: answer))
            }
        }
    }
}
