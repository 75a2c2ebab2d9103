import CCurl
import LiveActivityCore

/// Sends APNs background pushes over HTTP/2 + TLS with one libcurl multi handle: one
/// multiplexed connection to the host (SPEC section 5.4), at most `maxInFlight` streams at once,
/// easy handles reused from a pool the size of that window.
///
/// The caller drives it from one thread:
///
///     let client = try APNsClient(options: options, providerToken: token)
///     client.submit(contentsOf: pushes)
///     while let done = try client.next() { ... }      // or poll(timeoutMilliseconds:) for batches
///
/// After a 403 ExpiredProviderToken, set `providerToken` and `submit` the push again (it is sent
/// with the new token). On a configuration fault, `cancelAll()` drops every queued and in-flight push.
public final class APNsClient {
    public let options: APNsClientOptions
    /// The token sent with every push started from now on; pushes already in flight keep theirs.
    public var providerToken: ProviderToken {
        didSet { authorization = providerToken.authorization }
    }

    /// The payload SPEC section 5.5 asks for; the app looks for `liveActivityWakeup`.
    public static let payload = #"{"aps":{"content-available":1},"liveActivityWakeup":true}"#

    private var authorization: String
    private let multi: CurlMulti
    private let constantHeaders: [String]
    private let deviceURLPrefix: String
    private var queue = FIFOQueue<APNsPush>()
    private var finished = FIFOQueue<APNsCompletion>()
    /// Every transfer ever made (at most `maxInFlight`); `idle` holds the unattached ones.
    private var transfers: [APNsTransfer] = []
    private var idle: [APNsTransfer] = []
    private var running = 0

    /// Sets up the multi handle; no connection is opened until the first push.
    public init(options: APNsClientOptions, providerToken: ProviderToken) throws(CurlError) {
        precondition(options.maxInFlight >= 1 && options.maxConnections >= 1, "window and connections must be positive")
        self.options = options
        self.providerToken = providerToken
        authorization = providerToken.authorization
        multi = try CurlMulti()
        // https://curl.se/libcurl/c/CURLMOPT_PIPELINING.html: multiplex transfers over HTTP/2.
        try multi.set(CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX, "CURLMOPT_PIPELINING")
        try multi.set(CURLMOPT_MAX_HOST_CONNECTIONS, options.maxConnections, "CURLMOPT_MAX_HOST_CONNECTIONS")
        try multi.set(CURLMOPT_MAX_CONCURRENT_STREAMS, options.maxInFlight, "CURLMOPT_MAX_CONCURRENT_STREAMS")
        // Headers that never change (SPEC section 5.5; priority 5 is the only valid one for background).
        constantHeaders = [
            "apns-topic: " + options.topic,
            "apns-push-type: background",
            "apns-priority: 5",
            "content-type: application/json",
        ]
        deviceURLPrefix = options.baseURL + "/3/device/"
    }

    deinit {
        // Detach every running transfer before the multi handle and the easy handles go.
        for transfer in transfers where transfer.push != nil { multi.remove(transfer.easy) }
    }

    // MARK: - Submitting

    /// Queues `push`; it starts when the window has room. `first` puts it ahead of the queue
    /// (a retry after a token renewal).
    public func submit(_ push: APNsPush, first: Bool = false) {
        if first { queue.prepend(push) } else { queue.append(push) }
    }

    /// Queues `pushes` in order.
    public func submit(contentsOf pushes: some Sequence<APNsPush>) {
        queue.append(contentsOf: pushes)
    }

    /// Pushes waiting for room in the window.
    public var queuedCount: Int { queue.count }
    /// Pushes handed to libcurl and not yet finished.
    public var inFlightCount: Int { running }
    /// True when nothing is queued, in flight, or finished but not yet returned.
    public var isIdle: Bool { queue.isEmpty && running == 0 && finished.isEmpty }

    // MARK: - Driving

    /// Runs the transfers until one finishes and returns it; nil once nothing is queued or in
    /// flight. Throws only for libcurl faults of the multi handle itself, never for a push.
    public func next() throws(CurlError) -> APNsCompletion? {
        while true {
            if let completion = finished.popFirst() { return completion }
            if queue.isEmpty && running == 0 { return nil }
            try step(waitMilliseconds: 1000)
        }
    }

    /// Runs the transfers for up to `timeoutMilliseconds` (returning early when some finish)
    /// and returns every push that has finished, possibly none. For callers that write outcomes
    /// in batches; `isIdle` says when all is done.
    public func poll(timeoutMilliseconds: Int) throws(CurlError) -> [APNsCompletion] {
        if finished.isEmpty && !(queue.isEmpty && running == 0) {
            try step(waitMilliseconds: timeoutMilliseconds)
        }
        return finished.removeAll()
    }

    /// Stops: drops the queue and aborts every push in flight (their HTTP/2 streams are reset;
    /// the connection stays for later use). Returns the ids of all those pushes, which have no
    /// answer; pushes that already finished are still returned by `next()`/`poll`.
    @discardableResult
    public func cancelAll() -> [Int] {
        var cancelled: [Int] = []
        for transfer in transfers {
            guard let push = transfer.push else { continue }
            multi.remove(transfer.easy)
            transfer.push = nil
            idle.append(transfer)
            cancelled.append(push.id)
        }
        running = 0
        cancelled += queue.removeAll().map(\.id)
        return cancelled
    }

    // MARK: - The loop

    /// Fills the window, lets libcurl work, waits up to `waitMilliseconds` if nothing finished.
    private func step(waitMilliseconds: Int) throws(CurlError) {
        try startQueued()
        try multi.perform()
        collectFinished()
        guard finished.isEmpty else { return }
        try multi.poll(milliseconds: waitMilliseconds)
        try multi.perform()
        collectFinished()
    }

    /// Moves queued pushes onto idle (or new) transfers until the window is full.
    private func startQueued() throws(CurlError) {
        while running < options.maxInFlight, let push = queue.popFirst() {
            let transfer: APNsTransfer
            if let reused = idle.popLast() {
                transfer = reused
            } else {
                transfer = try APNsTransfer(options: options, payload: Self.payload)
                transfers.append(transfer)
            }
            do {
                try transfer.prepare(
                    push, url: deviceURLPrefix + push.token.hex, authorization: authorization,
                    constantHeaders: constantHeaders)
                try multi.add(transfer.easy)
            } catch {
                transfer.push = nil
                idle.append(transfer)
                queue.prepend(push)
                throw error
            }
            running += 1
        }
    }

    private func collectFinished() {
        for (handle, result) in multi.finishedTransfers() {
            guard let opaque = CurlEasy.privatePointer(of: handle) else { continue }
            let transfer = Unmanaged<APNsTransfer>.fromOpaque(opaque).takeUnretainedValue()
            guard let push = transfer.push else { continue }
            finished.append(APNsCompletion(id: push.id, answer: transfer.answer(result: result)))
            multi.remove(transfer.easy)
            transfer.push = nil
            idle.append(transfer)
            running -= 1
        }
    }
}
