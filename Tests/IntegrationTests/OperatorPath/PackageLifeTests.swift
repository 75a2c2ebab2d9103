import Foundation
import TestSupport
import Testing

/// The Debian package as an operator uses it (SPEC 7 "Packaging", SPEC 8, issue 25), on this
/// host as root: two versions built and checked by lintian, docs/INSTALL.md's "With the Debian package"
/// followed as written with the local APNs stand-in in Apple's place, the cron lines run as cron
/// runs them (and the units as systemd would, where it is not PID 1), then installed twice,
/// upgraded, removed and purged, and the file system compared with its state before. Like the
/// operator path it changes the host (users, /etc, /usr, /var, /run, nginx on :443), so it runs
/// as root only, under the same claim (one run per host at a time), and removes what it made.
@Suite("Package life", .serialized)
struct PackageLifeTests {
    /// The host, claimed, or a skip with one line saying why not (nil before Swift 6.3, which
    /// cannot cancel a test).
    static func claimHost(siteName: String) throws -> HostClaim? {
        var reason: SkipReason?
        for tool in ["dpkg-buildpackage", "dh", "lintian", "apt-get", "unshare", "systemd-socket-activate"]
        where systemTool(tool) == nil {
            reason = SkipReason("\(tool) is not installed (scripts/install-deps)")
        }
        if reason == nil {
            switch HostClaim.take(siteName: siteName) {
            case .success(let claim): return claim
            case .failure(let why): reason = why
            }
        }
        let line = reason?.description ?? "operator path: skipped"
        #if compiler(>=6.3)
            try Test.cancel(Comment(rawValue: line))
        #else
            print(line)
            return nil
        #endif
    }

    @Test(.enabled(if: getuid() == 0, "package life: skipped: needs root (apt, users, /etc, /var, nginx on :443)"))
    func thePackageLivesThroughInstallUseUpgradeRemovalAndPurge() throws {
        let readme = try ReadmeDeployment(.package)
        let siteName = try readme.siteName()
        guard let claim = try Self.claimHost(siteName: siteName) else { return }
        defer { claim.release() }
        try claim.recordCreations(siteName: siteName)
        defer { claim.tearDown() }
        let letsencryptExisted = FileManager.default.fileExists(atPath: "/etc/letsencrypt")

        let host = try PackageHost(readme: readme, siteName: siteName)
        let builds = TemporaryDirectory("package-builds")
        let first = try PackageBuild.first(block: readme.block(containing: "scripts/package"), scratch: host.staging.path)
        let second = try PackageBuild.second(after: first, in: builds)
        for package in [first, second] {
            let complaints = try PackageBuild.lintianComplaints(package, scratch: host.staging.path)
            #expect(complaints.isEmpty, "lintian on \(package.fileName): \(complaints)")
        }

        let before = try FileSystemSnapshot.take(scratch: host.staging.path)
        try host.startNginx()
        try installAsTheReadmeSays(first, on: host, claim: claim)
        expectInstalledAsSPEC7Says(on: host)
        try pushesGoOutThroughTheCronLine(on: host, count: 10)
        let stats = try host.root(readme.inlineCommand(startingWith: "runuser -u liveactivity -- "))
        #expect(stats.status == 0, "docs/INSTALL.md's stats command exited \(stats.status): \(OperatorHost.tail(stats.output))")
        try rootWritesThroughNoPlantedLink(on: host)
        try theUnitsServe(on: host)
        try theSweepOnPostgreSQLFindsItsFolderAndPasswordFile(on: host)

        let edit = "# The operator's edit \(UUID().uuidString)\nLIVEACTIVITY_EXPIRY_HOURS=9\n"
        try host.append(edit, to: PackageHost.configPath)
        try installingTwiceChangesNothing(first, on: host, edit: edit)
        try theUpgradeKeepsEverything(to: second, on: host, edit: edit)
        try removalStopsEverythingAndKeepsTheData(on: host)
        try purgeRemovesTheRest(on: host)

        host.stopNginx()
        try? FileManager.default.removeItem(atPath: letsencryptExisted ? "/etc/letsencrypt/live/" + siteName : "/etc/letsencrypt")
        let after = try FileSystemSnapshot.take(scratch: host.staging.path)
        let (ours, others) = FileSystemSnapshot.attribute(before.differences(to: after), scratch: host.staging.path)
        #expect(ours.isEmpty, "after the purge the file system differs from before the install: \(ours.prefix(20))")
        if !others.isEmpty { print("package life: changed meanwhile by other packages' apt runs: \(others.prefix(5))") }
        print(
            "package life: \(first.fileName) and \(second.fileName) built, checked by lintian, installed, used, reinstalled, upgraded, removed and purged; \(host.site.acknowledged.count) registrations kept throughout; systemd \(PackageHost.systemdRuns ? "runs" : "is not PID 1: its units ran under systemd-socket-activate")"
        )
    }

    // MARK: - docs/INSTALL.md's steps

    /// docs/INSTALL.md's steps 2 to 5 on this host: `apt install` in a folder holding the first version
    /// alone, the key and the ids, the site, the check.
    func installAsTheReadmeSays(_ package: BuiltPackage, on host: PackageHost, claim: HostClaim) throws {
        _ = try readmeBlock("scp ", of: host)  // copying to the host: the package is on this host already
        let folder = host.staging.file("first")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: package.path, toPath: folder + "/" + package.fileName)
        let installed = try host.root(readmeBlock("apt install ./", of: host).text, in: folder)
        guard installed.status == 0 else {
            throw SocketError("docs/INSTALL.md's apt install exited \(installed.status): \(OperatorHost.tail(installed.output))")
        }
        #expect(host.packageStatus == "install ok installed \(package.version)", "dpkg says \(host.packageStatus ?? "nothing")")
        try expectTheResponderStarted(by: installed, on: host, what: "the first install")

        // Before the key: cron's sweep exits 2 with one line naming the setting it misses.
        if !PackageHost.systemdRuns {
            let lines = host.log("sweep.log").split(separator: "\n").count
            let sweep = try host.sweepAsCron()
            let added = host.log("sweep.log").split(separator: "\n").dropFirst(lines)
            #expect(sweep.status == 2, "the sweep without its key exited \(sweep.status)")
            #expect(
                added.count == 1 && added.first?.contains("configuration: APNS_KEY_ID is not set") == true,
                "the sweep without its key wrote \(Array(added))")
        }

        let key = try host.root(readmeBlock("apns-key.p8", of: host).text, in: host.staging.path)
        #expect(key.status == 0, "docs/INSTALL.md's key step exited \(key.status): \(OperatorHost.tail(key.output))")
        try host.pointSettingsAtStandIn()
        // Certbot's block is the step before the site: a self-signed pair where it puts the
        // certificate stands in for it (a test host has no public name for Let's Encrypt).
        _ = try readmeBlock("certbot certonly --webroot -w /var/www/html -d \(host.siteName)", of: host)
        try host.installSiteCertificate(claim: claim)
        let site = try host.root(readmeBlock("sites-available/liveactivity", of: host).text, in: host.staging.path)
        guard site.status == 0 else {
            throw SocketError("docs/INSTALL.md's nginx step exited \(site.status): \(OperatorHost.tail(site.output))")
        }
        try host.waitForTheSite()
        var environment = HostCommand.rootEnvironment
        environment["CURL_CA_BUNDLE"] = host.certificate
        let check = try HostCommand.shell(
            readmeBlock("curl ", of: host).text, in: host.staging.path, environment: environment, scratch: host.staging.path)
        #expect(
            check.output.contains("\"status\":\"ok\""), "docs/INSTALL.md's check answered: \(OperatorHost.tail(check.output))")
        try theDeployHookMakesNginxServeARenewedCertificate(on: host)
    }

    /// The block of docs/INSTALL.md's package section holding `fragment`, as written (the host name in
    /// it is the one the test's site serves).
    func readmeBlock(_ fragment: String, of host: PackageHost) throws -> ReadmeDeployment.Block {
        try host.readme.block(containing: fragment)
    }

    /// After an install or upgrade without systemd: postinst started (or restarted) the
    /// responder, or said that policy-rc.d forbids it; then cron's @reboot line starts it, as at
    /// boot. `startsAllowed`: apt ran with starts allowed (`PackageHost.root`).
    func expectTheResponderStarted(
        by install: HostOutput, on host: PackageHost, what: String, startsAllowed: Bool = false
    ) throws {
        guard !PackageHost.systemdRuns else {
            let active = try host.root("systemctl is-active liveactivity-fcgi.socket liveactivity-fcgi.service")
            #expect(active.status == 0, "after \(what) the responder's units are not active: \(active.output)")
            return
        }
        let forbidden = PackageHost.policyForbidsStarts && !startsAllowed
        #expect(
            install.output.contains("policy-rc.d forbids") == forbidden,
            "after \(what), postinst \(forbidden ? "did not say" : "said") that policy-rc.d forbids starting the responder: \(OperatorHost.tail(install.output, lines: 8))"
        )
        if install.output.contains("policy-rc.d forbids") {
            #expect(host.supervisor == nil, "after \(what) a responder runs although policy-rc.d forbids starting it")
            let booted = try host.bootAsCron()
            #expect(booted.status == 0, "the @reboot line exited \(booted.status): \(booted.output)")
        }
        #expect(host.responder() != nil, "after \(what) no responder runs")
    }

    // MARK: - What the install made

    /// SPEC 7 "Packaging": the programs, the user, the settings, the folders, the units.
    func expectInstalledAsSPEC7Says(on host: PackageHost) {
        let files = (try? host.packageFiles()) ?? []
        let programs = files.filter { $0.hasPrefix("/usr/bin/") }.sorted()
        #expect(programs == PackageHost.programs, "the package's /usr/bin holds \(programs)")
        for (path, expected) in [
            (PackageHost.configPath, "root:liveactivity 640"), ("/var/lib/liveactivity", "liveactivity:liveactivity 2770"),
            (PackageHost.logFolder, "root:adm 2750"), ("/etc/cron.d/liveactivity", "root:root 644"),
        ] {
            #expect(FileOwnership(path)?.description == expected, "\(path) is \(FileOwnership(path)?.description ?? "missing")")
        }
        let account = getpwnam(HostClaim.user)
        let system = account.map { $0.pointee.pw_uid < 1000 && String(cString: $0.pointee.pw_shell).hasSuffix("nologin") }
        #expect(system == true, "the user liveactivity is not a system user without a login shell")
        let groups = try? HostCommand.run(["/usr/bin/id", "-Gn", HostClaim.webUser], scratch: host.staging.path)
        #expect(
            groups?.output.split(separator: " ").contains { $0.hasPrefix(HostClaim.user) } == true,
            "www-data is not in the group liveactivity")
        let conffiles = try? HostCommand.run(
            ["/usr/bin/dpkg-query", "-W", "-f=${Conffiles}", HostClaim.packageName], scratch: host.staging.path)
        for conffile in [PackageHost.configPath, "/etc/cron.d/liveactivity", "/etc/nginx/snippets/liveactivity.conf"] {
            #expect(conffiles?.output.contains(conffile + " ") == true, "\(conffile) is not a conffile")
        }
        for program in PackageHost.programs {
            let ldd = try? HostCommand.run(["/usr/bin/ldd", program], scratch: host.staging.path)
            let swift = ldd?.output.split(separator: "\n").filter {
                $0.contains("swift") || $0.contains("not found") || $0.contains("libFoundation") || $0.contains("libdispatch")
            }
            #expect(ldd?.status == 0 && swift?.isEmpty == true, "\(program) loads \(swift ?? []) (ldd exit \(ldd?.status ?? -1))")
            // Opened at run time when a run needs them (docs/ARCHITECTURE.md), never linked.
            let opened = ldd?.output.split(separator: "\n").filter { line in
                ["libcurl", "libcrypto", "libssl", "libpq"].contains { line.contains($0 + ".so") }
            }
            #expect(opened?.isEmpty == true, "\(program) links \(opened ?? [])")
        }
        // The libraries opened at run time too, as dpkg-shlibdeps found them (debian/dlopen-probe).
        let depends = try? HostCommand.run(
            ["/usr/bin/dpkg-query", "-W", "-f=${Depends}", HostClaim.packageName], scratch: host.staging.path)
        let named = Set(
            (depends?.output ?? "").split(separator: ",").compactMap {
                $0.split(separator: " ").first.map { String($0.split(separator: ":").first ?? $0) }
            })
        for library in PackageHost.libraryPackages {
            #expect(named.contains(library), "Depends: \(depends?.output ?? "") names no \(library)")
        }
        #expect(depends?.output.contains("libcurl4 (>= 7.85.0)") == true, "Depends: \(depends?.output ?? "")")
        let verified = InstalledUnits.verify(scratch: host.staging.path)
        #expect(verified.isEmpty, "systemd-analyze verify of the installed units: \(verified)")
    }

    /// `count` registrations through nginx, then cron's sweep line: each token reaches the stand-in.
    func pushesGoOutThroughTheCronLine(on host: PackageHost, count: Int) throws {
        let refused = host.site.register(count)
        #expect(refused.isEmpty, "registrations through the package's snippet answered \(refused)")
        let due = Set(host.site.acknowledged).subtracting(try host.pushedTokens())
        if let responder = host.responder() {
            let swift = HostProcesses.mappedLibraries(responder).filter { $0.contains("swift") || $0.contains("libFoundation") }
            #expect(swift.isEmpty, "the running responder has \(swift.sorted()) mapped")
        }
        if PackageHost.systemdRuns {
            let sweep = try host.root("systemctl start liveactivity-sweep.service")
            #expect(sweep.status == 0, "the sweep's service: \(sweep.output)")
        } else {
            let sweep = try host.sweepAsCron()
            #expect(
                sweep.status == 0,
                "cron's sweep line exited \(sweep.status): \(OperatorHost.tail(host.log("sweep.log"), lines: 2))")
            let summary = host.log("sweep.log").split(separator: "\n").last { $0.contains("sent=") } ?? ""
            let sent = summary.firstMatch(of: #/liveactivity-sweep: sweep: .* sent=(\d+) /#).flatMap { Int($0.output.1) }
            #expect((sent ?? 0) >= due.count, "sweep.log's last summary, with \(due.count) due: \(summary)")
        }
        let missing = due.subtracting(try host.pushedTokens())
        #expect(missing.isEmpty, "the stand-in received no push for \(missing.count) of the \(due.count) due tokens")
    }

    /// Root's cron lines write only where root alone may (SPEC 7), checked as in the hand-made
    /// path: links to a file of root's planted by the sweep's user and the web user, then the
    /// @reboot and sweep lines as cron runs them.
    func rootWritesThroughNoPlantedLink(on host: PackageHost) throws {
        RootWrites.expectRootLinesWriteOnlyWhereRootAlone(try host.crontab(), named: "the package's /etc/cron.d/liveactivity")
        guard !PackageHost.systemdRuns else { return }
        let target = try PlantedLinkTarget()
        let logs = ["fcgi.log", "sweep.log"]
        try host.stopResponder()
        let planted = target.plant(
            logs, in: PackageHost.logFolder, as: [HostClaim.user, HostClaim.webUser], scratch: host.staging.path)
        defer { target.removeLinks(logs, in: PackageHost.logFolder) }
        #expect(planted.isEmpty, "less-privileged users put links in the log folder: \(planted)")
        let booted = try host.bootAsCron()
        #expect(booted.status == 0 && host.responder() != nil, "the @reboot line (exit \(booted.status)) started no responder")
        let sweep = try host.sweepAsCron()
        #expect(sweep.status == 0, "cron's sweep line exited \(sweep.status)")
        #expect(target.written.isEmpty, "root wrote through a planted link: '\(target.written.prefix(160))'")
    }

    /// The units serve where systemd runs them; where it is not PID 1 (this host, a container),
    /// they run as systemd would: the socket unit through systemd-socket-activate, the service on
    /// it, and the sweep's service as its user. Meanwhile cron's responder is stopped.
    func theUnitsServe(on host: PackageHost) throws {
        let timer = try UnitFile("liveactivity-sweep.timer")
        #expect(try timer.value("OnCalendar") == "*-*-* *:*:00", "the timer does not run the sweep every minute")
        guard !PackageHost.systemdRuns else {
            let enabled = try host.root("systemctl is-enabled liveactivity-fcgi.socket liveactivity-sweep.timer")
            #expect(enabled.status == 0, "the units are not enabled: \(enabled.output)")
            // Started at the install, key or not: a sweep without it exits 2 with one line.
            let active = try host.root("systemctl is-active liveactivity-sweep.timer")
            #expect(active.status == 0, "the sweep's timer is not running: \(active.output)")
            return
        }
        try host.stopResponder()
        let journal = host.staging.file("units.journal")
        let responder = try InstalledUnits.startResponder(journal: journal)
        let refused = host.site.register(3)
        let sweep = try InstalledUnits.runSweep(scratch: host.staging.path)
        let stopped = responder.stop()
        #expect(refused.isEmpty, "through the socket and service units, registrations answered \(refused): \(responder.output)")
        #expect(sweep.status == 0, "the sweep's service exited \(sweep.status): \(OperatorHost.tail(sweep.output))")
        #expect(stopped == .exited(0), "the service's responder ended \(stopped) on SIGTERM")
        let missing = Set(host.site.acknowledged.suffix(3)).subtracting(try host.pushedTokens())
        #expect(missing.isEmpty, "the sweep's service pushed \(3 - missing.count) of the 3 tokens")
        try? FileManager.default.removeItem(atPath: "/run/liveactivity-fcgi.sock")
        let booted = try host.bootAsCron()
        #expect(booted.status == 0 && host.responder() != nil, "cron's @reboot line did not start the responder again")
    }
}
