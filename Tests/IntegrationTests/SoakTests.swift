import Foundation
import LiveActivityDomain
import LiveActivityStore
import TestSupport
import Testing

/// The soak (issue #4), run by `scripts/soak`, not by `swift test`: `LIVEACTIVITY_SOAK=1` enables
/// it and `LIVEACTIVITY_SOAK_SECONDS` sets its length (default 300). Clients register, refresh
/// and unregister through nginx while the sweep runs every 10 s against the stand-in, with
/// intervals of 60 s (debug) and 120 s (charging) and an expiry of 3 minutes. Then:
/// every acknowledged registration is stored or legitimately gone; no token was pushed twice
/// within its interval - 30 s (nor left more than interval + 60 s) unless it registered again in
/// between; and the responder's memory stayed flat.
///
/// Why these numbers: the sweep selects rows due within its 30 s slack, so after a push at p the
/// next sweep that may push again starts at p + interval - 30 s or later - with sweeps every 10 s
/// the lower bound is really exercised (pushes land 30-40 s apart for a 60 s interval).
@Suite("Soak", .enabled(if: ProcessInfo.processInfo.environment["LIVEACTIVITY_SOAK"] == "1"))
struct SoakTests {
    static let seconds = Int(ProcessInfo.processInfo.environment["LIVEACTIVITY_SOAK_SECONDS"] ?? "") ?? 300
    static let clients = 16
    static let tokensPerClient = 100
    static let sweepEvery: TimeInterval = 10
    static let settings = [
        "LIVEACTIVITY_INTERVAL_DEBUG": "60", "LIVEACTIVITY_INTERVAL_CHARGING": "120", "LIVEACTIVITY_EXPIRY_HOURS": "0.05",
    ]
    static let expiryMilliseconds: Int64 = 180_000

    /// One request a client made: what, when sent, when answered, and the status (0: no answer).
    struct Event: Sendable {
        var register: Bool
        var sent: Int64
        var answered: Int64
        var status: Int
    }

    /// The type each token registers with, fixed per token so its interval is known.
    static func isCharging(_ seed: Int) -> Bool { seed % 3 == 0 }
    static func interval(_ seed: Int) -> Int64 { isCharging(seed) ? 120_000 : 60_000 }

    // On SQLite, as scripts/soak has always run it: one soak of five minutes, not one per engine.
    @Test func registrationsAndSweepsForMinutesLoseNothingPushNothingTwiceAndKeepMemoryFlat() throws {
        let stack = try LiveStack(with(.sqlite, Self.settings, workers: Self.clients))
        let standIn = try StandInStack()
        var sweepEnvironment = standIn.sweepEnvironment(database: stack.databasePath)
        sweepEnvironment.merge(Self.settings) { _, new in new }
        let sweepSettings = sweepEnvironment
        let clock = Clock()
        let start = Date()
        let deadline = start.addingTimeInterval(TimeInterval(Self.seconds))

        let events = LockedBox<[Int: [Event]]>([:])
        let sweeps = LockedBox<[(start: Int64, status: Int32, line: String)]>([])
        let memory = LockedBox<[(second: Double, kilobytes: Int)]>([])
        let badAnswers = LockedBox<[Int]>([])
        let group = TestThreads()

        for client in 0..<Self.clients {
            group.start {
                var random = SplitMix64(seed: UInt64(client + 1))
                var registered = Set<Int>()
                while Date() < deadline {
                    // A pick every 50-150 ms; a token is picked about every 10 s. A registered one
                    // mostly stays as it is (an app registers once per Live Activity), so most
                    // pairs of pushes have no registration between them and can be judged.
                    usleep(UInt32(50_000 + random.next() % 100_000))
                    let seed = 50_000 + client * 1000 + Int(random.next() % UInt64(Self.tokensPerClient))
                    let token = testToken(seed)
                    let roll = random.next() % 100
                    if roll < 2 {
                        // Garbage now and then: refused, and it changes nothing.
                        let status = (try? stack.request("POST", "/wakeup", body: "{\"pushToken\":\"\(token.prefix(40))\"}"))?
                            .status
                        badAnswers.update { $0.append(status ?? 0) }
                        continue
                    }
                    let register: Bool
                    if !registered.contains(seed) {
                        register = true
                    } else if roll < 7 {
                        register = true  // refresh
                    } else if roll < 12 {
                        register = false
                    } else {
                        continue
                    }
                    let body =
                        register
                        ? registerBody(token, type: Self.isCharging(seed) ? "charging" : "debug") : unregisterBody(token)
                    let sent = clock.now()
                    let status =
                        (try? stack.request("POST", register ? "/wakeup" : "/wakeup/unregister", body: body))?.status ?? 0
                    events.update {
                        $0[seed, default: []].append(Event(register: register, sent: sent, answered: clock.now(), status: status))
                    }
                    if status == 200 {
                        if register { registered.insert(seed) } else { registered.remove(seed) }
                    }
                }
            }
        }
        group.start {
            while Date() < deadline {
                let started = clock.now()
                let run = try? runCommand(product("liveactivity-sweep"), [], environment: sweepSettings, timeout: 60)
                sweeps.update { $0.append((started, run?.status ?? -1, (run?.stdout ?? "") + (run?.stderr ?? ""))) }
                let next = Date(timeIntervalSince1970: Double(started) / 1000 + Self.sweepEvery)
                while Date() < min(next, deadline) { usleep(100_000) }
            }
        }
        group.start {
            while Date() < deadline {
                if let kilobytes = residentKilobytes(of: stack.responder.pid) {
                    memory.update { $0.append((Date().timeIntervalSince(start), kilobytes)) }
                }
                usleep(2_000_000)
            }
        }
        // Every loop ends at the deadline; a request or sweep in progress then has its own bound.
        #expect(group.wait(timeout: .seconds(Self.seconds + 180)), "the soak's clients did not finish")

        // MARK: - The responder and the sweeps held up

        #expect(stack.responder.isRunning, "the responder died: \(stack.responderLog.suffix(2000))")
        let runs = sweeps.get()
        #expect(runs.count >= Self.seconds / Int(Self.sweepEvery) - 2, "too few sweeps ran: \(runs.count)")
        for run in runs where run.status != 0 {
            Issue.record("a sweep exited \(run.status): \(run.line)")
        }
        let history = events.get()
        let all = history.values.flatMap { $0 }
        let internalErrors = all.filter { $0.status == 500 }.count
        #expect(internalErrors == 0)
        #expect(all.filter { $0.status == 200 }.count > Self.seconds * 5, "too little load: \(all.count) requests")
        #expect(badAnswers.get().allSatisfy { $0 == 400 }, "garbage answered otherwise: \(Set(badAnswers.get()))")

        // MARK: - Every acknowledged registration is stored or legitimately gone

        let store = stack.database
        // The sweep expires by its own clock at its start, which it records. The time noted here
        // before starting it is earlier by the process's start-up, and a token registered in
        // between was rightly expired by it (one such token failed the soak once).
        let lastSweep = try #require(try store.reading { try $0.lastRun() }).startedAt
        var checked = 0
        for (seed, list) in history {
            // A request without an answer may or may not have been applied: that token is not judged.
            if list.contains(where: { $0.status == 0 }) { continue }
            let stored = try store.registration(try PushToken(validating: testToken(seed))) != nil
            guard let last = list.last(where: { $0.status == 200 }) else {
                #expect(!stored, "token \(seed) was never acknowledged but is stored")
                continue
            }
            checked += 1
            if !last.register {
                #expect(!stored, "token \(seed) was unregistered but is stored")
            } else if last.sent > lastSweep - Self.expiryMilliseconds {
                #expect(stored, "token \(seed) was registered at \(last.sent) and not expired, but is gone")
            }
        }
        #expect(checked > Self.clients * Self.tokensPerClient / 2)

        // MARK: - No token pushed twice within interval - 30 s, nor left longer than interval + 60 s

        let pushes = Dictionary(grouping: try standIn.state().received(), by: \.deviceToken)
        var pairs = 0
        for (seed, list) in history {
            let received = (pushes[testToken(seed)] ?? []).map(\.receivedAt).sorted()
            let registrations = list.filter { $0.register && $0.status == 200 }
            let unregistrations = list.filter { !$0.register && $0.status == 200 }
            for (first, second) in zip(received, received.dropFirst()) {
                // The sweep that made the first push selected it at its start.
                let selected = runs.map(\.start).filter { $0 <= first }.max() ?? first
                let registeredBetween = registrations.contains { $0.sent <= second && $0.answered >= selected }
                if registeredBetween { continue }
                pairs += 1
                let gap = second - first
                #expect(gap >= Self.interval(seed) - 30_000, "token \(seed) pushed twice \(gap) ms apart")
                let endedBetween = unregistrations.contains { $0.sent <= second && $0.answered >= first }
                if !endedBetween {
                    #expect(gap <= Self.interval(seed) + 60_000, "token \(seed) waited \(gap) ms between pushes")
                }
            }
        }
        #expect(pairs > 100, "too few consecutive pushes to judge: \(pairs)")

        // MARK: - The responder's memory stays flat

        let samples = memory.get()
        func median(_ range: Range<Double>) -> Int? {
            let values = samples.filter { range.contains($0.second) }.map(\.kilobytes).sorted()
            return values.isEmpty ? nil : values[values.count / 2]
        }
        let total = Double(Self.seconds)
        if total >= 180, let second = median(60..<120), let last = median((total - 60)..<total) {
            #expect(Double(last) <= Double(second) * 1.3 + 4096, "RSS grew from \(second) KiB to \(last) KiB")
            print("soak: responder RSS median \(second) KiB in minute 2, \(last) KiB in the last minute")
        }
        let nginx503 = all.filter { $0.status == 503 }.count
        print(
            "soak: \(Self.seconds) s, \(all.count) requests (\(all.filter { $0.status == 200 }.count) acknowledged, \(nginx503) answered 503), "
                + "\(runs.count) sweeps, \(pushes.values.map(\.count).reduce(0, +)) pushes, \(pairs) consecutive pairs judged")
    }
}

/// A small seeded generator, so a failing soak can be run again with the same choices.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
