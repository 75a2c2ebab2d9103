import Foundation
import TestSupport
import Testing

/// The operator's and the host's events (SPEC 7, issue #8), and what must hold after each: a
/// registration answers 200 again within 10 s, five more do, no registration answered 200 before
/// is lost, and the event left its lines in the documented log.
extension OperatorHost {
    static let fcgiLog = "fcgi.log"
    static let sweepLog = "sweep.log"

    /// Runs `action`, then checks recovery. `fragments` must each appear in more lines of
    /// fcgi.log than before the event.
    func survive(_ event: String, logs fragments: [String], _ action: () throws -> Void) {
        let before = fragments.map { occurrences(of: $0) }
        do {
            try action()
        } catch {
            Issue.record("\(event): \(error)")
            return
        }
        var last = (status: -1, body: "")
        let started = Date()
        let recovered = waitUntil(timeout: 10) {
            last = registerNewToken()
            if last.status != 200 { usleep(100_000) }
            return last.status == 200
        }
        #expect(
            recovered,
            "after \(event): no registration answered 200 within 10 s (last: \(last.status) \(last.body.prefix(80))); fcgi.log ends: \(Self.tail(log(Self.fcgiLog), lines: 3))"
        )
        guard recovered else { return }
        recoveries.append((event, Date().timeIntervalSince(started)))
        let statuses = (0..<5).map { _ in registerNewToken().status }
        #expect(statuses.allSatisfy { $0 == 200 }, "after \(event): five new registrations answered \(statuses)")
        expectNothingLost(after: event)
        for (fragment, count) in zip(fragments, before) {
            #expect(
                waitUntil(timeout: 2) { occurrences(of: fragment) > count },
                "after \(event): no new line with '\(fragment)' in /var/log/liveactivity/fcgi.log; it ends: \(Self.tail(log(Self.fcgiLog), lines: 3))"
            )
        }
    }

    /// Every token answered 200 is still stored.
    func expectNothingLost(after event: String) {
        do {
            let stored = try storedTokens()
            let lost = acknowledged.filter { !stored.contains($0) }
            #expect(
                lost.isEmpty,
                "after \(event): \(lost.count) of \(acknowledged.count) acknowledged registrations are gone (first \(lost.first?.prefix(8) ?? "-")…)"
            )
        } catch {
            Issue.record("after \(event): \(error)")
        }
    }

    func occurrences(of fragment: String) -> Int {
        log(Self.fcgiLog).split(separator: "\n").filter { $0.contains(fragment) }.count
    }

    // MARK: - The events

    /// `kill -HUP $(cat /run/liveactivity-fcgi.pid)`: restart the responder.
    /// Returns once the old responder has ended and a new one runs: until then a request may
    /// reach the old one while it drains, which answers 503 with Retry-After (SPEC 7), as it may.
    func hangUpSupervisor() throws {
        guard let supervisor else { throw SocketError("no supervisor runs (pid file /run/liveactivity-fcgi.pid)") }
        let old = responder()
        kill(supervisor, SIGHUP)
        guard
            waitUntil(
                timeout: 20,
                {
                    guard let current = responder(timeout: 0) else { return false }
                    return current != old && old.map(HostProcesses.isGone) ?? true
                })
        else {
            throw SocketError("no new responder ran within 20 s of SIGHUP (the old one was \(old.map(String.init) ?? "none"))")
        }
    }

    /// The responder dies as a crash or the OOM killer ends it.
    func killResponder() throws {
        guard let responder = responder() else { throw SocketError("no responder runs under the supervisor to kill") }
        kill(responder, SIGKILL)
    }

    /// `kill -TERM $(cat /run/liveactivity-fcgi.pid)`, then docs/INSTALL.md's start line.
    func stopAndStart() throws {
        try stop()
        let started = try startAsTheReadmeSays()
        guard started.status == 0 else {
            throw SocketError("docs/INSTALL.md's start line exited \(started.status): \(started.output)")
        }
    }

    /// `kill -TERM` of the supervisor; throws unless it and its responder are gone within 10 s.
    func stop() throws {
        guard let supervisor else { throw SocketError("no supervisor runs (pid file /run/liveactivity-fcgi.pid)") }
        let processes = HostProcesses.tree(of: supervisor)
        kill(supervisor, SIGTERM)
        guard waitUntil(timeout: 10, { processes.allSatisfy(HostProcesses.isGone) }) else {
            throw SocketError("the supervisor \(supervisor) or its responder still runs 10 s after SIGTERM")
        }
    }

    /// docs/INSTALL.md's upgrade: step 1's `install` over the running binaries, then the restart.
    func upgrade() throws {
        try installBinariesAgain()
        try hangUpSupervisor()
    }

    /// A reboot as this host sees it: every process gone at once, our files in /run gone (a tmpfs),
    /// then cron's @reboot line (run as cron runs it) and nginx starting again.
    func reboot() throws {
        var processes: [Int32] = []
        if let supervisor { processes += HostProcesses.tree(of: supervisor) }
        if let nginxMaster { processes += HostProcesses.tree(of: nginxMaster) }
        guard HostProcesses.kill(processes) else { throw SocketError("processes \(processes) survived SIGKILL for 10 s") }
        for path in ["/run/liveactivity-fcgi.sock", "/run/liveactivity-fcgi.pid", "/run/nginx.pid"] {
            try? FileManager.default.removeItem(atPath: path)
        }
        let booted = try runAsCron(crontab().reboot())
        guard booted.status == 0 else { throw SocketError("the @reboot line exited \(booted.status): \(booted.output)") }
        try startNginx()
    }

    /// The database removed while stopped, then the responder started: it makes a new database
    /// that the sweep (another user, same group) must be able to write.
    func replaceDatabase() throws {
        try stop()
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: databasePath + suffix) }
        forgetAcknowledged()
        let started = try startAsTheReadmeSays()
        guard started.status == 0 else {
            throw SocketError("docs/INSTALL.md's start line exited \(started.status): \(started.output)")
        }
    }

    // MARK: - Checks of logs and files

    /// Every line of a log is time-stamped (ISO 8601 UTC) and names its program (SPEC 7).
    func expectTimeStampedLines(in name: String) {
        let pattern = try! Regex(#"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ liveactivity-(fcgi|sweep): "#)
        let lines = log(name).split(separator: "\n")
        #expect(!lines.isEmpty, "/var/log/liveactivity/\(name) is empty or missing")
        let bare = lines.filter { (try? pattern.prefixMatch(in: $0)) == nil }
        let allStamped = bare.isEmpty
        #expect(
            allStamped,
            "\(bare.count) of \(lines.count) lines of /var/log/liveactivity/\(name) lack a time stamp and program name, e.g. '\(bare.first?.prefix(100) ?? "")'"
        )
    }

    /// `path` belongs to `owner` (nil: anyone) and `group` with exactly `mode`.
    func expectFile(_ path: String, owner: String?, group: String, mode: Int, why: String) {
        guard let found = FileOwnership(path) else {
            Issue.record("\(path) does not exist (\(why))")
            return
        }
        let expected = "\(owner ?? "*"):\(group) \(String(mode, radix: 8))"
        let matches = (owner == nil || found.user == owner) && found.group == group && found.mode == mode
        #expect(matches, "\(path) is \(found), expected \(expected) (\(why))")
    }

    /// True when `user` can read the file at `path`.
    func canRead(_ path: String, as user: String) -> Bool {
        let read = try? HostCommand.shell(
            "cat \"$1\" >/dev/null", arguments: [path], as: user, environment: ["PATH": "/usr/bin:/bin"], scratch: staging.path)
        return read?.status == 0
    }
}
