import Foundation
import LiveActivityDomain
import LiveActivityStore
import TestSupport
import Testing

/// The faults a small shared host meets (issue #4): a full disk, a folder the web user may not
/// write, a database file deleted under the running responder, and the responder killed -9 under
/// load. Each must cost requests (503), never data, and name its cause in one log line.
@Suite("Reliability")
struct ReliabilityTests {
    // SQLite only: SQLite's page ceiling.
    @Test
    func aFullDatabaseAnswers503WithOneLineKeepsItsRowsAndResumesWhenSpaceReturns() throws {
        // max_page_count is the database's own "disk": writes past it fail exactly as ENOSPC does.
        // The schema itself takes some 26 pages (a page a table and index); the rest holds rows.
        let stack = try LiveStack(with(.sqlite, ["LIVEACTIVITY_SQLITE_MAX_PAGES": "40"]))
        let pid = stack.responder.pid
        var (accepted, refusal) = try registerUntilRefused(stack, seeds: 20_000..<23_000)
        let refused = try #require(refusal, "3000 registrations fit in 40 pages?")
        #expect(refused.status == 503)
        #expect(jsonObject(refused)?["error"] as? String == "Service temporarily unavailable; try again later")
        #expect(accepted.count > 20)
        // Nearly full: a row that fits a page with room still goes in; the others are refused.
        var statuses: [Int] = []
        for seed in 0..<20 {
            let token = testToken(29_000 + seed)
            let status = try stack.request("POST", "/wakeup", body: registerBody(token)).status
            if status == 200 { accepted.append(token) }
            statuses.append(status)
        }
        #expect(statuses.contains(503), "\(statuses)")
        #expect(Set(statuses).isSubset(of: [200, 503]), "\(statuses)")

        let faultLines = stack.responderLog.split(separator: "\n").filter { $0.contains("database error") }
        #expect(faultLines.count == 1, "one line for the fault, not one per request: \(faultLines)")
        #expect(faultLines.first?.contains("disk full") == true)
        #expect(faultLines.first?.contains("LIVEACTIVITY_SQLITE_MAX_PAGES") == true)
        try expectIntact(stack.database, holding: accepted)

        // Space returns: unregistering frees pages, and the same process takes registrations again.
        for token in accepted.prefix(accepted.count / 2) {
            #expect(try stack.request("POST", "/wakeup/unregister", body: unregisterBody(token)).status == 200)
        }
        let resumed = testToken(29_999)
        #expect(try stack.request("POST", "/wakeup", body: registerBody(resumed)).status == 200)
        #expect(try storedRegistration(resumed, in: stack) != nil)
        #expect(stack.responderLog.contains("database usable again after disk full"))
        #expect(stack.responder.isRunning && stack.responder.pid == pid)
        try expectIntact(stack.database, holding: Array(accepted.suffix(accepted.count - accepted.count / 2)) + [resumed])
    }

    // Needs root to run the responder as nobody and to hand the folder over to it.
    // SQLite only: a SQLite file's folder.
    @Test(.enabled(if: geteuid() == 0))
    func aDatabaseFolderTheResponderMayNotWriteIsA503UntilItMay() throws {
        // The responder runs as nobody (root would write anyway); the folder and file are root's.
        let data = TemporaryDirectory("readonly")
        chmod(data.path, 0o755)
        let path = data.file("registrations.sqlite")
        let earlier = testToken(30_000)
        try TestDatabase(sqliteFile: path).register(
            try PushToken(validating: earlier), type: .charging, environment: .production, now: Clock().now(),
            expiresAt: Clock().now() + 3_600_000, cap: 10)
        var options = with(.sqlite, ["LIVEACTIVITY_DB": path])
        options.unprivileged = true
        options.waitForHealthy = false
        let stack = try LiveStack(options)

        let refused = try stack.request("POST", "/wakeup", body: registerBody(testToken(30_001)))
        #expect(refused.status == 503)
        #expect(jsonObject(refused)?["error"] as? String == "Service temporarily unavailable; try again later")
        #expect(try stack.request("POST", "/wakeup", body: registerBody(testToken(30_002))).status == 503)
        let faultLines = stack.responderLog.split(separator: "\n").filter { $0.contains("database error") }
        #expect(faultLines.count == 1, "\(faultLines)")
        #expect(faultLines.first.map { $0.contains("read-only") || $0.contains("cannot open") } == true, "\(faultLines)")
        #expect(!stack.responderLog.contains("Fatal error"))
        #expect(stack.responder.isRunning)

        // The operator fixes the owner; the running responder writes again.
        for name in ["", "/registrations.sqlite", "/registrations.sqlite-wal", "/registrations.sqlite-shm"] {
            chown(data.path + name, 65534, 65534)
        }
        let later = testToken(30_003)
        #expect(try stack.request("POST", "/wakeup", body: registerBody(later)).status == 200)
        #expect(stack.responderLog.contains("database usable again after"))
        try expectIntact(TestDatabase(sqliteFile: path), holding: [earlier, later])
    }

    // SQLite only: what happens to a SQLite file.
    @Test
    func aDatabaseFileDeletedUnderTheResponderIsCreatedAgainAndTakesTheNextRegistrations() throws {
        let stack = try LiveStack(with(.sqlite, [:], workers: 4))
        let before = testToken(31_000)
        #expect(try stack.request("POST", "/wakeup", body: registerBody(before)).status == 200)

        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: stack.databasePath + suffix)
        }
        // From several clients at once, so more than one worker meets the vanished file.
        let tokens = (1...16).map { testToken(31_000 + $0) }
        let statuses = LockedBox<[Int]>([])
        let ended = TestThreads.run(4) { client in
            for token in tokens[(client * 4)..<(client * 4 + 4)] {
                let status = (try? stack.request("POST", "/wakeup", body: registerBody(token)))?.status ?? 0
                statuses.update { $0.append(status) }
            }
        }
        #expect(ended, "a client never got its answers")
        #expect(statuses.get().allSatisfy { $0 == 200 }, "\(statuses.get())")

        #expect(FileManager.default.fileExists(atPath: stack.databasePath))
        try expectIntact(stack.database, holding: tokens)
        #expect(try storedRegistration(before, in: stack) == nil, "the deleted file took its rows along")
        let health = try stack.request("GET", "/wakeup/health")
        #expect(jsonObject(health)?["registrations"] as? Int == tokens.count)
        let lines = stack.responderLog.split(separator: "\n").filter { $0.contains("was deleted or replaced") }
        #expect(lines.count == 1, "\(lines)")
    }

    /// Under spawn-fcgi the restarted child serves the same inherited socket; with `--socket` it
    /// opens the socket again.
    @Test(arguments: TestEngine.real, [LiveStack.Launcher.socketFlag, .spawnFCGI])
    func everyRegistrationAnswered200SurvivesAKill9AndTheSupervisorBringsTheResponderBack(
        engine: TestEngine, _ launcher: LiveStack.Launcher
    ) throws {
        var options = with(engine, [:], workers: 4)
        options.arguments = ["--supervise"]
        options.launcher = launcher
        let stack = try LiveStack(options)
        let supervisor = stack.responder.pid
        var firstChild: Int32?
        waitUntil(timeout: 60) {
            firstChild = childProcesses(of: supervisor).first
            return firstChild != nil
        }
        let killed = try #require(firstChild, "no responder under the supervisor")

        let acknowledged = LockedBox<[String]>([])
        let refusedCount = LockedBox(0)
        let stop = LockedBox(false)
        let clients = TestThreads()
        for client in 0..<4 {
            clients.start {
                var seed = 0
                while !stop.get() && seed < 5000 {
                    seed += 1
                    let token = testToken(1_000_000 * (client + 1) + seed)
                    let status = (try? stack.request("POST", "/wakeup", body: registerBody(token)))?.status
                    if status == 200 { acknowledged.update { $0.append(token) } } else { refusedCount.update { $0 += 1 } }
                }
            }
        }
        defer {
            stop.set(true)
            // Each request has a socket timeout, so the clients end; the bound is for a bug here.
            #expect(clients.wait(timeout: .seconds(120)), "the clients did not finish")
        }

        #expect(waitUntil(timeout: 60) { acknowledged.get().count >= 100 })
        kill(killed, SIGKILL)
        var restarted: Int32?
        let back = waitUntil(timeout: 60) {
            restarted = childProcesses(of: supervisor).first { $0 != killed }
            return restarted != nil && (try? stack.request("GET", "/wakeup/health"))?.status == 200
        }
        #expect(back, "the supervisor did not bring the responder back: \(stack.responderLog)")
        let atRestart = acknowledged.get().count
        #expect(waitUntil(timeout: 60) { acknowledged.get().count >= atRestart + 50 }, "no registration after the restart")
        stop.set(true)
        #expect(clients.wait(timeout: .seconds(120)), "the clients did not finish")

        try expectIntact(stack.database, holding: acknowledged.get())
        #expect(stack.responderLog.contains("child \(killed) was killed by signal 9; restarting it"))
        #expect(stack.responder.isRunning, "the supervisor itself stays up")
    }
}

/// Registers a new token per seed through nginx until one is refused: the tokens answered 200,
/// and the first refusal (nil when every one went in).
func registerUntilRefused(_ stack: LiveStack, seeds: Range<Int>) throws -> (accepted: [String], refusal: HTTPResult?) {
    var accepted: [String] = []
    for seed in seeds {
        let token = testToken(seed)
        let result = try stack.request("POST", "/wakeup", body: registerBody(token))
        guard result.status == 200 else { return (accepted, result) }
        accepted.append(token)
    }
    return (accepted, nil)
}

/// The database holds every one of `tokens` (and a SQLite file passes `PRAGMA integrity_check`).
func expectIntact(_ database: TestDatabase, holding tokens: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
    if database.kind == .sqlite {
        #expect(try database.rows("PRAGMA integrity_check") == [["ok"]], sourceLocation: sourceLocation)
    }
    let stored = Set(try database.rows("SELECT push_token FROM push_targets").map { $0[0] ?? "" })
    let missing = tokens.filter { !stored.contains($0) }
    #expect(
        missing.isEmpty, "\(missing.count) of \(tokens.count) acknowledged registrations are missing",
        sourceLocation: sourceLocation)
}
