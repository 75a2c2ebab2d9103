import Testing

@testable import APNsHTTP2

/// The client's window as a pure value: connections by backlog, and a depth that stays at the
/// server's stream limit (times the connections) plus a small reserve, and follows its changes;
/// past the least depth only when the answers show a distance (slow, and waited for).
@Suite struct InFlightWindowTests {
    func window(maxInFlight: Int = 2000) -> InFlightWindow {
        InFlightWindow(maxInFlight: maxInFlight, maxConnections: 4, streamsPerConnection: 500, pushesPerConnection: 10_000)
    }

    @Test(arguments: [(1, 1), (9_999, 1), (10_000, 1), (20_000, 2), (39_999, 3), (100_000, 4), (5_000_000, 4)])
    func connectionsFollowTheBacklogUpToFour(backlog: Int, connections: Int) {
        var window = window()
        _ = window.plan(backlog: backlog)
        #expect(window.connections == connections)
        #expect(window.ceiling == connections * 500)
        // Before the first answer, each connection gets what libcurl assumes before SETTINGS.
        #expect(window.depth(inFlight: 0, waiting: 0, finished: 0) == connections * 100)
    }

    @Test func connectionsAreOnlyEverRaised() {
        var window = window()
        #expect(window.plan(backlog: 100_000) == 4)
        #expect(window.plan(backlog: 100) == nil)
        #expect(window.plan(backlog: 50_000) == nil)
        #expect(window.connections == 4)
    }

    @Test func aBindingLimitKeepsOnlyTheReserveWaiting() {
        var window = window()
        _ = window.plan(backlog: 100_000)
        window.isWarm = true
        sample(&window, from: 0, over: 100, roundTrip: 0.1, waited: 180)  // 100 ms away
        // 400 on the wire, 100 waiting: keep 400 + the reserve, whatever finished.
        #expect(window.depth(inFlight: 500, waiting: 100, finished: 300) == 400 + InFlightWindow.waitingAllowed)
        // Nothing waiting: replace what finished, and as much again.
        #expect(window.depth(inFlight: 400, waiting: 0, finished: 100) == 600)
        #expect(window.depth(inFlight: 400, waiting: 0, finished: 1) == 401 + InFlightWindow.waitingAllowed)
        // Never past what the distance needs (1,500 at 100 ms), nor the ceiling
        // (LIVEACTIVITY_APNS_CONCURRENCY, or connections x 500).
        #expect(window.depth(inFlight: 1490, waiting: 0, finished: 500) == 1500)
        var capped = self.window(maxInFlight: 700)
        _ = capped.plan(backlog: 100_000)
        capped.isWarm = true
        sample(&capped, from: 0, over: 100, roundTrip: 0.1, waited: 180)
        #expect(capped.depth(inFlight: 690, waiting: 0, finished: 100) == 700)
    }

    @Test(arguments: [
        (0.000_3, 1, 100), (0.000_3, 4, 400), (0.010, 1, 150), (0.010, 4, 400), (0.050, 4, 750), (0.100, 4, 1500),
        (0.300, 4, 2000), (0.100, 1, 500),
    ])
    func theDepthCoversTheDistanceAndNoMore(roundTrip: Double, connections: Int, depth: Int) {
        var window = window()
        _ = window.plan(backlog: connections * 10_000)
        window.isWarm = true
        #expect(window.coveringDepth == window.ceiling, "no answer yet: the server's limit alone")
        window.observe(requestSeconds: roundTrip * 3, at: t0)
        window.observe(requestSeconds: roundTrip, at: t0)
        window.observe(requestSeconds: roundTrip * 2, at: t0)
        #expect(window.shortestRoundTrip == roundTrip)
        #expect(window.coveringDepth == depth)
        // However much finished, the window does not go past it.
        #expect(window.depth(inFlight: depth, waiting: 0, finished: depth) <= depth)
        #expect(window.depth(inFlight: depth, waiting: 10, finished: 0) <= depth)
    }

    let t0 = ContinuousClock.now

    /// Feeds `window` one sample of answers (as many as its least depth), spread over the
    /// `milliseconds` after `start` (ms after t0), each `roundTrip` after its request, the client
    /// having waited `waited` ms for them. The first sample begins when the first request went out.
    func sample(
        _ window: inout InFlightWindow, from start: Int, over milliseconds: Int, roundTrip: Double, waited: Int
    ) {
        let count = window.leastDepth
        window.observeWait(.milliseconds(waited))
        for answer in 1...count {
            window.observe(requestSeconds: roundTrip, at: t0 + .milliseconds(start + milliseconds * answer / count))
        }
    }

    @Test func atADistanceTheAnswersGrantTheCoveringDepthOnceAndForAll() {
        var window = window()
        _ = window.plan(backlog: 100_000)
        window.isWarm = true
        #expect(window.depth(inFlight: 400, waiting: 0, finished: 400) == 400, "the least depth until answers show more pays")
        // 400 answers 100 ms after their requests, over the 100 ms after the first: 2,000 a
        // second from the first request, waited for most of the time.
        sample(&window, from: 0, over: 100, roundTrip: 0.1, waited: 180)
        #expect(window.grantedDepth == 1500)
        #expect(window.depth(inFlight: 400, waiting: 0, finished: 400) == 1500, "filled at once: no server limit seen")
        #expect(window.depth(inFlight: 1500, waiting: 0, finished: 1500) == 1500)
        // At the depth granted the rate is covered: that is no reason to go back.
        sample(&window, from: 100, over: 20, roundTrip: 0.1, waited: 18)
        #expect(window.grantedDepth == 1500 && window.depth(inFlight: 1500, waiting: 0, finished: 400) == 1500)
    }

    /// Once transfers wait for a stream, the server's limit binds below the ceiling: from then
    /// on the depth grows by what finishes (the reserve waits, not a flood).
    @Test func afterAServerLimitShowsTheDepthGrowsByWhatFinishes() {
        var window = window()
        _ = window.plan(backlog: 100_000)
        window.isWarm = true
        sample(&window, from: 0, over: 100, roundTrip: 0.1, waited: 180)
        #expect(window.depth(inFlight: 400, waiting: 100, finished: 0) == 300 + InFlightWindow.waitingAllowed)
        #expect(window.serverLimitSeen)
        #expect(window.depth(inFlight: 400, waiting: 0, finished: 400) == 1200, "grows by what finished, and as much again")
        #expect(window.depth(inFlight: 1400, waiting: 0, finished: 400) == 1500)
    }

    @Test func nextDoorTheClientsOwnPassIsNoDistance() {
        var window = window()
        _ = window.plan(backlog: 100_000)
        window.isWarm = true
        // Answers 38 ms after their requests (a pass of the client's own loop at 400 in flight),
        // 400 of them every 30 ms: more than the rate to cover, so the least depth is enough,
        // however deep the covering depth at 38 ms would be, and however long the client waited.
        for round in 0..<10 { sample(&window, from: 30 * round, over: 30, roundTrip: 0.038, waited: 30) }
        #expect(window.coveringDepth == 570)
        #expect(window.grantedDepth == 0)
        #expect(window.depth(inFlight: 400, waiting: 0, finished: 400) == 400)
    }

    @Test func aClientTooBusyToWaitForAnswersIsNotGrantedMore() {
        var window = window()
        _ = window.plan(backlog: 100_000)
        window.isWarm = true
        // Slow (400 in 100 ms), but the client was busy, not waiting: the depth would not help.
        sample(&window, from: 0, over: 100, roundTrip: 0.1, waited: 40)
        #expect(window.grantedDepth == 0 && window.depth(inFlight: 400, waiting: 0, finished: 400) == 400)
        // A later sample that waited for a distance does.
        sample(&window, from: 100, over: 100, roundTrip: 0.1, waited: 80)
        #expect(window.grantedDepth == 1500)
    }

    @Test func nonsenseTimesAreIgnored() {
        var window = window()
        window.observe(requestSeconds: -1, at: t0)
        window.observe(requestSeconds: .nan, at: t0)
        window.observe(requestSeconds: .infinity, at: t0)
        window.observe(requestSeconds: 1e300, at: t0)
        #expect(window.shortestRoundTrip == 1e300, "finite and huge: kept, and no trap turning it into an instant")
    }

    /// libcurl and a server as a model: `limit` streams per connection, answers one round trip
    /// (give or take 10%) after a stream starts, waiting transfers started first come first.
    struct ModelServer {
        var limit: Int
        var connections = 4
        var roundTrip = 100.0
        var now = 0.0
        var onTheWire: [Double] = []  // answer times
        var waiting = 0
        var random = 0x2545_F491_4F6C_DD1D as UInt64

        mutating func jitter() -> Double {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return 0.9 + 0.2 * Double(random >> 11) / Double(1 << 53)
        }
        mutating func hand(_ count: Int) {
            for _ in 0..<count {
                if onTheWire.count < limit * connections {
                    onTheWire.append(now + roundTrip * jitter())
                } else {
                    waiting += 1
                }
            }
        }
        /// Advances to the next answer and returns how many finished by then (one pass).
        mutating func pass() -> Int {
            guard let next = onTheWire.min() else { return 0 }
            now = next + 0.2
            let before = onTheWire.count
            onTheWire.removeAll { $0 <= now }
            let finished = before - onTheWire.count
            while waiting > 0 && onTheWire.count < limit * connections {
                waiting -= 1
                onTheWire.append(now + roundTrip * jitter())
            }
            return finished
        }
    }

    /// Runs the window against `server` for `passes` and returns the mean on the wire and the
    /// most left waiting over the second half.
    func run(_ window: inout InFlightWindow, _ server: inout ModelServer, passes: Int) -> (wire: Double, waiting: Int) {
        var finished = 0
        var wire = 0
        var mostWaiting = 0
        for pass in 0..<passes {
            let inFlight = server.onTheWire.count + server.waiting
            let depth = window.depth(inFlight: inFlight, waiting: server.waiting, finished: finished)
            server.hand(max(0, depth - inFlight))
            let before = server.now
            finished = server.pass()
            // The client waited for the answers of this pass, which took a round trip each.
            window.observeWait(.microseconds(Int64((server.now - before) * 1000)))
            for _ in 0..<finished {
                window.observe(requestSeconds: server.roundTrip / 1000, at: t0 + .microseconds(Int64(server.now * 1000)))
            }
            window.isWarm = true
            if pass >= passes / 2 {
                wire += server.onTheWire.count
                mostWaiting = max(mostWaiting, server.waiting)
            }
        }
        return (Double(wire) / Double(passes - passes / 2), mostWaiting)
    }

    @Test func theDepthFollowsTheServersLimitAndItsChanges() {
        var window = window()
        _ = window.plan(backlog: 100_000)
        // 200 ms away: twice the rate to cover is 4,000 in flight, more than our own cap.
        var server = ModelServer(limit: 1000, roundTrip: 200)
        var result = run(&window, &server, passes: 4000)
        #expect(result.wire > 1990 && result.waiting == 0, "a generous server: as deep as our own cap, 4 x 500")

        server.limit = 100
        result = run(&window, &server, passes: 8000)
        #expect(result.wire > 395 && result.waiting <= InFlightWindow.waitingAllowed, "lowered to 100: \(result)")

        server.limit = 300
        result = run(&window, &server, passes: 8000)
        #expect(result.wire > 1190 && result.waiting <= InFlightWindow.waitingAllowed, "raised to 300: \(result)")
    }
}
