/// How many pushes the client hands to libcurl at once, and over how many connections.
///
/// At a distance the rate is what is in flight divided by the round trip, so the client keeps
/// as many streams open as the server allows: APNs advertises up to ~1,000 per connection in its
/// SETTINGS (and may lower it), and libcurl follows that per connection by itself. What libcurl
/// cannot send at once it keeps in a pending list, where each transfer costs CPU on every pass
/// and its wait counts against its timeout. So after every pass the client looks at what it
/// handed over: while some still wait for a stream, the server's limit binds, and it keeps only
/// `waitingAllowed` beyond what has started; while none wait, it replaces what finished and
/// adds as much again (at least `waitingAllowed`), to find a higher limit within a few passes.
/// The depth is the server's limit (times the connections) plus a small reserve, and it follows
/// the limit when the server changes it.
///
/// Connections: one per environment for small runs, one more per `pushesPerConnection` of
/// backlog up to `maxConnections`; each carries at most `streamsPerConnection` (fewer, deeper
/// connections answer in bursts: one wake-up handles hundreds of completions before their
/// replacements go out).
struct InFlightWindow: Equatable {
    /// The most pushes in flight however deep the backlog (`APNsClientOptions.maxInFlight`).
    let maxInFlight: Int
    let maxConnections: Int
    let streamsPerConnection: Int
    let pushesPerConnection: Int

    /// Connections allowed now (CURLMOPT_MAX_HOST_CONNECTIONS); only ever raised.
    private(set) var connections = 1
    /// Set at the first answer: the connections are up and the server's limit is in force.
    /// Until then the client fills each allowed connection as far as libcurl assumes a server
    /// allows before its SETTINGS, so that all of them open at once rather than one by one.
    var isWarm = false

    static let streamsBeforeSettings = 100
    /// Pushes allowed to wait in libcurl for a stream: a reserve that takes each freed stream
    /// without waiting for the client's next pass.
    static let waitingAllowed = 32

    init(maxInFlight: Int, maxConnections: Int, streamsPerConnection: Int, pushesPerConnection: Int) {
        self.maxInFlight = max(1, maxInFlight)
        self.maxConnections = max(1, maxConnections)
        self.streamsPerConnection = max(1, streamsPerConnection)
        self.pushesPerConnection = max(1, pushesPerConnection)
    }

    /// The deepest the window goes with the connections allowed now.
    var ceiling: Int { min(maxInFlight, connections * streamsPerConnection) }

    /// Plans for `backlog` pushes not yet answered (queued and in flight). Returns the new
    /// connection count when it grew, for the caller to hand to libcurl.
    mutating func plan(backlog: Int) -> Int? {
        let wanted = min(maxConnections, max(1, backlog / pushesPerConnection))
        guard wanted > connections else { return nil }
        connections = wanted
        return wanted
    }

    /// How many pushes to keep handed to libcurl after a pass that left `inFlight` with it, of
    /// which `waiting` have not started (no stream yet, or their connection is still being set
    /// up), and finished `finished`.
    func depth(inFlight: Int, waiting: Int, finished: Int) -> Int {
        guard isWarm else { return min(ceiling, connections * Self.streamsBeforeSettings) }
        if waiting > 0 { return min(ceiling, inFlight - waiting + Self.waitingAllowed) }
        return min(ceiling, inFlight + finished + max(Self.waitingAllowed, finished))
    }
}
