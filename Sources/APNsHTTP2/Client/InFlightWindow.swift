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
/// The server's limit is an upper bound, not a goal: each transfer in flight costs CPU on every
/// pass (libcurl visits all of them) and about 12 kB. So once answers come, the depth is also held
/// to `coverFactor` times what `rateToCover` needs at the shortest round trip seen (Little's law),
/// and at least `leastPerConnection` per connection: 1,500 at 100 ms, a few hundred at 10 ms, 100
/// a connection next door.
///
/// And it goes past that least depth only once the answers show it pays (`grantedDepth`): a
/// sample of answers that came slower than `rateToCover` while the client mostly waited for them.
/// The first time they do, it fills the depth granted at once, unless a server limit has shown
/// (transfers waiting for a stream): growing by what finished would take a round trip per
/// doubling, three or four of them at 100 ms, which a sweep of a few thousand pushes pays in full.
/// Next door the round trip is the client's own pass (libcurl notes an answer when it is next
/// called), which grows with the depth: the rate at that round trip always asked for more,
/// so the depth was set by how slow the first answers happened to be (400 to 770 transfers at
/// 100,000 pushes, each holding libcurl's 16 kB upload buffer) for no more pushes a second.
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

    /// The shortest time from a request's start to its answer seen so far, in seconds: the round
    /// trip without queues. Nil until the first answer.
    private(set) var shortestRoundTrip: Double?

    /// Answers since the current sample began, when it began, and how long the client waited
    /// for answers in it (`observeWait`).
    private var sampleAnswers = 0
    private var sampleStart: ContinuousClock.Instant?
    private var sampleWaited: Duration = .zero
    /// The deepest the answers have justified so far (`coveringDepth` at a sample that showed a
    /// distance); never lowered, so a window that reached the rate keeps it.
    private(set) var grantedDepth = 0
    /// Set once transfers waited for a stream after the first answer: the server's limit binds
    /// somewhere below the ceiling, so the depth grows by what finishes rather than at once.
    private(set) var serverLimitSeen = false

    static let streamsBeforeSettings = 100
    /// Pushes per second the depth is sized for: more than one sweep process sends on one core,
    /// so a deeper window would only cost CPU and memory.
    static let rateToCover = 10_000.0
    /// How far past Little's law the depth goes: answers also wait for the client's pass and for
    /// the CPU the server and the client share. Twice held 2,000 at 100 ms, 500 more transfers
    /// than the rate used there (the same pushes a second at 1,500 and at 2,000, measured), and
    /// 6 MB more.
    static let coverFactor = 1.5
    /// The least depth per connection, however near the server (curl's own default for
    /// parallel transfers): enough to keep each pass busy.
    static let leastPerConnection = 100
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

    /// The deepest the window needs to go at the distance seen so far (the ceiling until then).
    var coveringDepth: Int {
        guard let roundTrip = shortestRoundTrip else { return ceiling }
        let needed = Int(min(Self.rateToCover * roundTrip * Self.coverFactor, Double(ceiling)).rounded(.up))
        return min(ceiling, max(leastDepth, needed))
    }

    /// The depth before the answers justify more: `leastPerConnection` per connection.
    var leastDepth: Int { min(ceiling, connections * Self.leastPerConnection) }

    /// Notes the time one push took from its request's start to its answer, which came `now`.
    mutating func observe(requestSeconds: Double, at now: ContinuousClock.Instant) {
        guard requestSeconds.isFinite, requestSeconds >= 0 else { return }
        shortestRoundTrip = min(shortestRoundTrip ?? requestSeconds, requestSeconds)
        // The first sample starts when the first answered request went out, after the connection
        // was set up: its handshake is no part of the rate.
        let start = sampleStart ?? now - .microseconds(Int64(min(requestSeconds, 86_400) * 1e6))
        sampleStart = start
        sampleAnswers += 1
        guard sampleAnswers >= leastDepth else { return }
        let elapsed = now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        // Slower than the rate to cover, and not because the client was busy: the distance binds.
        if Double(sampleAnswers) < Self.rateToCover * seconds && sampleWaited * 2 >= elapsed {
            grantedDepth = max(grantedDepth, coveringDepth)
        }
        sampleAnswers = 0
        sampleStart = now
        sampleWaited = .zero
    }

    /// Notes that the client waited `duration` for answers (in poll, with pushes in flight); the
    /// waits before the first answer count toward the first sample.
    mutating func observeWait(_ duration: Duration) {
        sampleWaited += duration
    }

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
    mutating func depth(inFlight: Int, waiting: Int, finished: Int) -> Int {
        guard isWarm else { return min(ceiling, connections * Self.streamsBeforeSettings) }
        let cap = min(coveringDepth, max(leastDepth, grantedDepth))
        if waiting > 0 {
            serverLimitSeen = true
            return min(cap, inFlight - waiting + Self.waitingAllowed)
        }
        if grantedDepth > 0 && !serverLimitSeen { return cap }
        return min(cap, inFlight + finished + max(Self.waitingAllowed, finished))
    }
}
