import Foundation
import TestSupport
import Testing

/// docs/INSTALL.md's "Deployment on a shared host" followed as an operator on a Debian host runs it
/// (SPEC 8, issue #8): real users www-data and liveactivity, the shipped crontab, nginx site and
/// snippets on port 443, spawn-fcgi, the sweep run as cron runs it against the local APNs
/// stand-in; then the operator's and the host's events. It changes the host (users, /etc, /opt,
/// /var, /run), so it runs as root only, one run per host at a time, and removes everything it
/// made - on failure too, and after a run that died.
@Suite("Operator path", .serialized)
struct OperatorPathTests {
    @Test(.enabled(if: getuid() == 0, "operator path: needs root (users, /etc, /opt, /var, /run, nginx on :443)"))
    func theREADMEDeploymentLivesThroughAHostsLife() throws {
        let readme = try ReadmeDeployment()
        let siteName = try readme.siteName()
        let claim: HostClaim
        switch HostClaim.take(siteName: siteName) {
        case .success(let taken): claim = taken
        case .failure(let reason):
            #if compiler(>=6.3)
                try Test.cancel(Comment(rawValue: reason.description))
            #else
                print(reason.description)
                return
            #endif
        }
        defer { claim.release() }
        try claim.recordCreations(siteName: siteName)
        defer { claim.tearDown() }

        let host = try OperatorHost(claim: claim, readme: readme, siteName: siteName)
        try host.deployAsTheReadmeSays()

        let check = try host.checkAsTheReadmeSays()
        let healthy = check.status == 0 && check.output.contains("\"status\":\"ok\"")
        #expect(
            healthy,
            "docs/INSTALL.md step 6's check answered (exit \(check.status)): \(OperatorHost.tail(check.output))")

        try firstRegistrationsArePushed(on: host)
        expectSeparatedUsers(on: host)
        try theWebUserCannotHoldUpTheSweep(on: host)
        try rootWritesThroughNoPlantedLink(on: host)

        host.survive("SIGHUP to the supervisor", logs: ["on SIGHUP", "serving FastCGI"]) { try host.hangUpSupervisor() }
        host.survive("SIGKILL of the responder", logs: ["killed by signal 9", "serving FastCGI"]) { try host.killResponder() }
        host.survive("SIGTERM, then docs/INSTALL.md's start line", logs: ["supervisor: stopped on signal", "supervising"]) {
            try host.stopAndStart()
        }
        host.survive("an upgrade (step 1's install, then SIGHUP)", logs: ["on SIGHUP", "serving FastCGI"]) {
            try host.upgrade()
        }
        let running = host.responder().flatMap { inode(of: "/proc/\($0)/exe") }
        let upgraded = running != nil && running == inode(of: "/opt/liveactivity/bin/liveactivity-fcgi")
        #expect(
            upgraded,
            "after the upgrade the responder does not run the newly installed /opt/liveactivity/bin/liveactivity-fcgi")
        host.survive("a reboot (all killed, /run emptied, cron's @reboot line, nginx)", logs: ["supervising", "serving FastCGI"])
        {
            try host.reboot()
        }

        expectUnitsVerify(on: host)
        try finalSweepPushesEveryToken(on: host)
        try newDatabaseIsSharedByBothUsers(on: host)
        host.expectTimeStampedLines(in: OperatorHost.fcgiLog)
        host.expectTimeStampedLines(in: OperatorHost.sweepLog)
        let times = host.recoveries.map { "\($0.event): \(String(format: "%.2f", $0.seconds)) s" }
        print(
            "operator path: \(host.registered) registrations answered 200 and kept; back after \(times.joined(separator: "; "))")
    }

    /// 20 registrations over HTTPS on 443, then the crontab's sweep line as cron runs it.
    func firstRegistrationsArePushed(on host: OperatorHost) throws {
        let statuses = (0..<20).map { _ in host.registerNewToken().status }
        #expect(statuses.allSatisfy { $0 == 200 }, "registrations over HTTPS on 443 answered \(statuses)")

        let sweep = try host.sweepAsCron()
        #expect(
            sweep.status == 0,
            "the crontab's sweep line, run as cron runs it, exited \(sweep.status): \(OperatorHost.tail(host.log(OperatorHost.sweepLog), lines: 2))"
        )
        let summary = host.log(OperatorHost.sweepLog).split(separator: "\n").last { $0.contains("sent=") }
        let stamped = try Regex(#"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ liveactivity-sweep: .*sent=20\b"#)
        let summaryIsStamped = summary.map { (try? stamped.firstMatch(in: $0)) != nil } ?? false
        #expect(summaryIsStamped, "sweep.log's summary line is not a time-stamped line with sent=20: '\(summary ?? "none")'")
        let pushed = Set(try host.standIn.state().received().map(\.deviceToken))
        let missing = host.acknowledged.filter { !pushed.contains($0) }
        #expect(missing.isEmpty, "the stand-in received no push for \(missing.count) of the \(host.acknowledged.count) tokens")
    }

    /// The web user holds the lock file an earlier build kept beside the database (it may create
    /// files in that folder) and cannot reach the sweep's own: the next sweep still pushes
    /// (SPEC 7, issue 18 point 6).
    func theWebUserCannotHoldUpTheSweep(on host: OperatorHost) throws {
        guard let web = getpwnam(HostClaim.webUser) else {
            Issue.record("no user \(HostClaim.webUser)")
            return
        }
        let oldLock = host.databasePath + ".sweep-lock"
        let holder = try ChildProcess(
            "/usr/bin/setpriv",
            [
                "--reuid=\(web.pointee.pw_uid)", "--regid=\(web.pointee.pw_gid)", "--init-groups", "/usr/bin/flock", "-F",
                oldLock, "/bin/sleep", "600",
            ], stopsWith: [.signalled(SIGTERM)])
        let held = waitUntil(timeout: 10) {
            let probe = open(oldLock, O_RDONLY | O_NOFOLLOW)
            defer { if probe >= 0 { close(probe) } }
            return probe >= 0 && flock(probe, LOCK_EX | LOCK_NB) != 0
        }
        #expect(held, "\(HostClaim.webUser) could not hold \(oldLock)")
        let sweepLock = host.databasePath + ".sweep/lock"
        #expect(!host.canRead(sweepLock, as: HostClaim.webUser), "\(HostClaim.webUser) can open the sweep's lock \(sweepLock)")

        #expect(host.registerNewToken().status == 200)
        let sweep = try host.sweepAsCron()
        #expect(holder.stop() == .signalled(SIGTERM), "the web user's holder ended as a sleep ends on SIGTERM")
        #expect(
            sweep.status == 0,
            "with \(HostClaim.webUser) holding \(oldLock) the sweep exited \(sweep.status): \(OperatorHost.tail(host.log(OperatorHost.sweepLog), lines: 2))"
        )
        #expect(!host.log(OperatorHost.sweepLog).contains("another sweep is running"), "the web user's lock stopped the sweep")
        let pushed = Set(try host.standIn.state().received().map(\.deviceToken))
        let missing = host.acknowledged.filter { !pushed.contains($0) }
        #expect(missing.isEmpty, "with the old lock held, \(missing.count) tokens were not pushed")
    }

    /// Root's crontab lines append to the logs by path (SPEC 7, issue 26 point 4). The sweep's
    /// user and the web user each try to put links to a file of root's in place of fcgi.log and
    /// sweep.log; then the @reboot line and the sweep's line run as cron runs them, and that file
    /// must still be empty. (When the sweep's user owned the log folder, its link took root's
    /// lines wherever it pointed.)
    func rootWritesThroughNoPlantedLink(on host: OperatorHost) throws {
        let crontab = try host.crontab()
        RootWrites.expectRootLinesWriteOnlyWhereRootAlone(crontab, named: "/etc/cron.d/liveactivity")
        let target = try PlantedLinkTarget()
        let folder = "/var/log/liveactivity"
        let logs = [OperatorHost.fcgiLog, OperatorHost.sweepLog]
        try host.stop()
        let planted = target.plant(logs, in: folder, as: [HostClaim.user, HostClaim.webUser], scratch: host.staging.path)
        defer { target.removeLinks(logs, in: folder) }
        #expect(planted.isEmpty, "less-privileged users put links in the log folder: \(planted)")

        let booted = try host.runAsCron(crontab.reboot())
        #expect(booted.status == 0, "the @reboot line exited \(booted.status): \(OperatorHost.tail(booted.output))")
        #expect(host.responder() != nil, "the @reboot line started no responder")
        let sweep = try host.sweepAsCron()
        #expect(
            sweep.status == 0, "the sweep's line exited \(sweep.status): \(OperatorHost.tail(host.log(OperatorHost.sweepLog)))")
        #expect(target.written.isEmpty, "root wrote through a planted link: '\(target.written.prefix(160))'")
    }

    /// Who may read and write what (docs/INSTALL.md step 2, docs/SECURITY.md, SPEC 2 and 5).
    func expectSeparatedUsers(on host: OperatorHost) {
        let user = HostClaim.user
        for suffix in ["", "-wal", "-shm"] {
            host.expectFile(
                host.databasePath + suffix, owner: nil, group: user, mode: 0o660, why: "both users write the database")
        }
        let key = (try? host.readme.setting("APNS_KEY_PATH")) ?? "?"
        host.expectFile(key, owner: user, group: user, mode: 0o400, why: "only the sweep reads the key")
        #expect(!host.canRead(key, as: HostClaim.webUser), "www-data can read the APNs key \(key)")

        let sweepFolder = host.databasePath + ".sweep"
        host.expectFile(sweepFolder, owner: user, group: user, mode: 0o700, why: "the sweep's lock and token are its alone")
        let tokenFile = sweepFolder + "/provider-token"
        host.expectFile(tokenFile, owner: user, group: user, mode: 0o600, why: "the cached provider token is the sweep's alone")
        #expect(!host.canRead(tokenFile, as: HostClaim.webUser), "www-data can read the cached provider token \(tokenFile)")
        let tables = try? host.query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%token%'", as: HostClaim.webUser)
        let noTokenTable = tables?.status == 0 && tables?.output.isEmpty == true
        #expect(
            noTokenTable,
            "the database www-data reads holds a token table: \(tables.map { OperatorHost.tail($0.output) } ?? "sqlite3 failed")")

        host.expectFile(host.configPath, owner: "root", group: user, mode: 0o640, why: "docs/INSTALL.md step 3")
        host.expectFile(
            "/var/log/liveactivity", owner: "root", group: "adm", mode: 0o2750,
            why: "docs/INSTALL.md step 2: only root's cron lines write there")
        for name in [OperatorHost.fcgiLog, OperatorHost.sweepLog] {
            let found = FileOwnership("/var/log/liveactivity/" + name)
            #expect(
                found.map { $0.mode & 0o002 == 0 } == true, "/var/log/liveactivity/\(name) is \(found?.description ?? "missing")")
        }

        guard let responder = host.responder(), let supervisor = host.supervisor else {
            Issue.record("no responder runs under the supervisor after deployment")
            return
        }
        let owner = HostProcesses.owner(responder)
        let expected = (getpwnam(HostClaim.webUser)?.pointee.pw_uid, getgrnam(user)?.pointee.gr_gid)
        let separated = owner?.uid == expected.0 && owner?.gid == expected.1
        #expect(
            separated,
            "the responder runs as uid \(owner?.uid ?? 0) gid \(owner?.gid ?? 0), not www-data:liveactivity")
        for pid in [supervisor, responder] {
            let apns = HostProcesses.environment(pid).filter { $0.hasPrefix("APNS_") }.map { $0.prefix { $0 != "=" } }
            #expect(apns.isEmpty, "the responder process \(pid) holds APNs settings in its environment: \(apns)")
        }
        let tls = HostProcesses.mappedLibraries(responder).filter { $0.contains("libcrypto") || $0.contains("libcurl") }
        #expect(tls.isEmpty, "the responder has \(tls.sorted()) mapped: it must link no TLS or HTTP client library")
    }

    /// `systemd-analyze verify` of the shipped units, with the binaries in place (SPEC 8).
    func expectUnitsVerify(on host: OperatorHost) {
        guard let analyze = systemTool("systemd-analyze") else {
            print("operator path: systemd-analyze is not installed; the units were not verified")
            return
        }
        let units = [
            "liveactivity-fcgi.socket", "liveactivity-fcgi.service", "liveactivity-sweep.service", "liveactivity-sweep.timer",
        ]
        // It exits 0 on unknown keys and bad values, warning on stderr: no output is the pass.
        let result = try? HostCommand.run(
            [analyze, "verify"] + units.map { host.staging.file("systemd/" + $0) }, scratch: host.staging.path)
        let verified = result?.status == 0 && result?.output.isEmpty == true
        #expect(
            verified,
            "systemd-analyze verify of systemd/ (exit \(result?.status ?? -1)): \(OperatorHost.tail(result?.output ?? ""))")
    }

    /// The crontab's sweep line once more: every token registered through the events is pushed.
    func finalSweepPushesEveryToken(on host: OperatorHost) throws {
        let sweep = try host.sweepAsCron()
        #expect(
            sweep.status == 0,
            "the last sweep exited \(sweep.status): \(OperatorHost.tail(host.log(OperatorHost.sweepLog), lines: 2))")
        let pushed = Set(try host.standIn.state().received().map(\.deviceToken))
        let missing = host.acknowledged.filter { !pushed.contains($0) }
        #expect(missing.isEmpty, "the stand-in received no push for \(missing.count) of \(host.acknowledged.count) tokens")
        let stats = try host.root(host.readme.inlineCommand(startingWith: "runuser -u liveactivity -- "))
        #expect(stats.status == 0, "docs/INSTALL.md's stats command exited \(stats.status): \(OperatorHost.tail(stats.output))")
    }

    /// The database deleted while stopped: the responder (www-data) makes the new one, and the
    /// sweep (liveactivity) must still write it.
    func newDatabaseIsSharedByBothUsers(on host: OperatorHost) throws {
        host.survive("the database deleted, then the start line", logs: ["serving FastCGI"]) { try host.replaceDatabase() }
        let sweep = try host.sweepAsCron()
        #expect(
            sweep.status == 0,
            "the sweep cannot use a database the responder created: exit \(sweep.status): \(OperatorHost.tail(host.log(OperatorHost.sweepLog), lines: 1))"
        )
        for suffix in ["", "-wal", "-shm"] {
            host.expectFile(
                host.databasePath + suffix, owner: nil, group: HostClaim.user, mode: 0o660,
                why: "made by the responder, written by the sweep")
        }
    }
}
