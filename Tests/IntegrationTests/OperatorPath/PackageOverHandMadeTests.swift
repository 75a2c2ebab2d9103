import Foundation
import TestSupport
import Testing

extension PackageLifeTests {
    /// The package installed over docs/INSTALL.md's deployment by hand, while it runs (issue 25): an
    /// older one, whose log folder the sweep's user owns (as an earlier README made it) and whose
    /// database the first schema left, with the systemd way's unit files beside the cron file.
    /// The package stops the hand-made responder, sets its cron file, log rotation and units
    /// aside, makes the log folder root's and serves the hand-made site on the same socket; after
    /// docs/INSTALL.md's move of the settings the next sweep migrates the database and pushes every
    /// registration it held. Then it is purged and the hand-made site still loads.
    @Test(.enabled(if: getuid() == 0, "package life: skipped: needs root (apt, users, /etc, /var, nginx on :443)"))
    func installingOverAHandMadeDeploymentKeepsItsRegistrationsAndServes() throws {
        let byHand = try ReadmeDeployment(.byHand)
        let packageWay = try ReadmeDeployment(.package)
        let siteName = try byHand.siteName()
        guard let claim = try Self.claimHost(siteName: siteName) else { return }
        defer { claim.release() }
        try claim.recordCreations(siteName: siteName)
        defer { claim.tearDown() }

        let handMade = try OperatorHost(claim: claim, readme: byHand, siteName: siteName)
        try handMade.deployAsTheReadmeSays()
        try installHandMadeUnits(from: handMade.staging, claim: claim)
        let statuses = (0..<5).map { _ in handMade.registerNewToken().status }
        #expect(statuses.allSatisfy { $0 == 200 }, "the hand-made deployment answered \(statuses)")

        try handMade.stop()
        chown(
            "/var/log/liveactivity", getpwnam(HostClaim.user)?.pointee.pw_uid ?? 0, getgrnam(HostClaim.user)?.pointee.gr_gid ?? 0)
        chmod("/var/log/liveactivity", 0o750)
        // What the sweep's user may have planted in the folder it owned (issue 30 point 13):
        // links root's cron lines would follow (the turn-4 attack pointed one at
        // /etc/ld.so.preload), a folder, a second name of a log.
        let target = handMade.staging.file("root-would-append-here")
        try Data("untouched\n".utf8).write(to: URL(fileURLWithPath: target))
        let planted = [
            "/var/log/liveactivity/fcgi.log.1", "/var/log/liveactivity/sweep.log.2.gz", "/var/log/liveactivity/planted",
        ]
        for link in planted {
            _ = unlink(link)
            #expect(symlink(target, link) == 0)
        }
        try FileManager.default.createDirectory(atPath: "/var/log/liveactivity/planted-folder", withIntermediateDirectories: true)
        try rewriteAsFirstSchema(handMade.databasePath, scratch: handMade.staging)
        let restarted = try handMade.startAsTheReadmeSays()
        #expect(
            restarted.status == 0 && handMade.responder() != nil,
            "docs/INSTALL.md's start line did not start the hand-made responder")
        let handMadeSupervisor = handMade.supervisor

        let host = PackageHost(
            readme: packageWay, siteName: siteName, staging: handMade.staging, standIn: handMade.standIn,
            certificate: handMade.siteCertificate)
        host.site.adopt(handMade.acknowledged)
        // The responder opens the database at its first request: none came, so it is the first schema's still.
        let schemaBefore = try host.schemaVersion()
        #expect(schemaBefore == 1, "the database is at schema \(schemaBefore) before the install, not the first")

        let package = try PackageBuild.first(block: packageWay.block(containing: "scripts/package"), scratch: host.staging.path)
        let folder = host.staging.file("package")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: package.path, toPath: folder + "/" + package.fileName)
        let installed = try host.root(packageWay.block(containing: "apt install ./").text, in: folder, startsAllowed: true)
        guard installed.status == 0 else {
            throw SocketError(
                "apt install over the hand-made deployment exited \(installed.status): \(OperatorHost.tail(installed.output))")
        }
        expectTheHandMadeFilesSetAside(by: installed)
        #expect(handMadeSupervisor.map(HostProcesses.isGone) != false, "the hand-made supervisor still runs")
        #expect(FileOwnership("/var/log/liveactivity")?.description == "root:adm 2750", "the log folder is not root's")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: "/var/log/liveactivity")) ?? []
        #expect(
            left.allSatisfy {
                ["fcgi.log", "sweep.log"].contains($0) || $0.hasPrefix("fcgi.log.") || $0.hasPrefix("sweep.log.")
            },
            "the takeover kept what was planted: \(left.sorted())")
        for link in planted + ["/var/log/liveactivity/planted-folder"] {
            var info = stat()
            #expect(lstat(link, &info) != 0, "the takeover kept \(link)")
        }
        for name in left {
            var info = stat()
            let path = "/var/log/liveactivity/" + name
            #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_uid == 0, "\(path) is not root's file")
        }
        #expect(installed.output.contains("liveactivity.env"), "postinst did not say where the hand-made settings go")
        try expectTheResponderStarted(
            by: installed, on: host, what: "the install over a hand-made deployment", startsAllowed: true)
        let refused = host.site.register(3)
        #expect(refused.isEmpty, "the hand-made site, served by the package's responder, answered \(refused)")

        let moved = try host.root(packageWay.block(containing: "liveactivity.env >>").text)
        #expect(moved.status == 0, "docs/INSTALL.md's move of the settings exited \(moved.status): \(moved.output)")
        let sweep = try host.sweepAsCron()
        #expect(
            sweep.status == 0,
            "the package's sweep line exited \(sweep.status): \(OperatorHost.tail(host.log("sweep.log"), lines: 2))")
        let schema = try host.schemaVersion()
        #expect(schema > 1, "the sweep did not migrate the first schema's database (user_version \(schema))")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "untouched\n", "root wrote through a planted link")
        let lost = Set(host.site.acknowledged).subtracting(try host.storedTokens())
        #expect(lost.isEmpty, "\(lost.count) registrations are gone after the install")
        let missing = Set(host.site.acknowledged).subtracting(try host.pushedTokens())
        #expect(
            missing.isEmpty, "the stand-in received no push for \(missing.count) of \(host.site.acknowledged.count) registrations"
        )

        let purged = try host.root(packageWay.inlineCommand(startingWith: "apt purge "))
        #expect(purged.status == 0, "apt purge exited \(purged.status): \(OperatorHost.tail(purged.output))")
        let test = try host.root("nginx -t")
        #expect(test.status == 0, "after the purge nginx refuses the hand-made site: \(OperatorHost.tail(test.output))")
        // The hand-made site names the same nginx logs as the package's snippet: they stay.
        for log in PackageHost.nginxLogs {
            #expect(FileManager.default.fileExists(atPath: log), "the purge took \(log), which the hand-made site still writes")
        }
        for path in ["/etc/cron.d/liveactivity.dpkg-old", "/etc/logrotate.d/liveactivity.dpkg-old"] {
            #expect(!FileManager.default.fileExists(atPath: path), "the purge left \(path) (docs/INSTALL.md says it goes)")
        }
    }

    /// The units of docs/INSTALL.md's systemd way by hand, as `cp systemd/liveactivity-* /etc/systemd/system/`
    /// and `systemctl enable` leave them (systemd is not needed to make the links).
    func installHandMadeUnits(from staging: TemporaryDirectory, claim: HostClaim) throws {
        let files = FileManager.default
        for unit in HostClaim.handMadeUnits {
            try files.copyItem(atPath: staging.file("systemd/" + unit), toPath: "/etc/systemd/system/" + unit)
        }
        for link in HostClaim.handMadeUnitLinks {
            let wants = URL(fileURLWithPath: link).deletingLastPathComponent().path
            if !files.fileExists(atPath: wants) {
                try claim.recordCreation(of: wants)
                try files.createDirectory(atPath: wants, withIntermediateDirectories: true)
            }
            try files.createSymbolicLink(
                atPath: link, withDestinationPath: "/etc/systemd/system/" + URL(fileURLWithPath: link).lastPathComponent)
        }
    }

    /// What the package's preinst does with the hand-made files: each set aside as NAME.dpkg-old
    /// and said so, the enablement links now the package's.
    func expectTheHandMadeFilesSetAside(by install: HostOutput) {
        let files =
            ["/etc/cron.d/liveactivity", "/etc/logrotate.d/liveactivity"]
            + HostClaim.handMadeUnits.map { "/etc/systemd/system/" + $0 }
        for path in files {
            #expect(install.output.contains("set the hand-made \(path) aside"), "preinst did not say it set \(path) aside")
            #expect(FileManager.default.fileExists(atPath: path + ".dpkg-old"), "\(path).dpkg-old is missing")
        }
        let cron = (try? String(contentsOfFile: "/etc/cron.d/liveactivity", encoding: .utf8)) ?? ""
        #expect(cron.contains("[ -x /usr/bin/liveactivity-fcgi ]"), "/etc/cron.d/liveactivity is not the package's")
        for link in HostClaim.handMadeUnitLinks {
            let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link)
            let unit = URL(fileURLWithPath: link).lastPathComponent
            #expect(target == "/lib/systemd/system/" + unit, "\(link) points to \(target ?? "nothing")")
        }
    }

    /// Rewrites the (stopped) deployment's database as the project's first schema (version 1,
    /// never changed since it shipped) left it, keeping its registrations: a deployment of an
    /// older build, which the programs migrate forward when they next open it.
    func rewriteAsFirstSchema(_ database: String, scratch: TemporaryDirectory) throws {
        let old = scratch.file("first-schema.sqlite")
        let columns =
            "push_token, activity_type, environment, registered_at, expires_at, next_push_at, last_push_at, wakeup_count, consecutive_failures, last_error"
        // Each registration is its wake target now; the first schema had nothing else.
        let targetColumns =
            "registration_token, activity_type, environment, registered_at, expires_at, next_push_at, last_push_at, push_count, consecutive_failures, last_error"
        let sql =
            Self.firstSchema + """
                ATTACH '\(database)' AS now;
                INSERT INTO registrations (\(columns)) SELECT \(targetColumns) FROM now.push_targets WHERE push_kind = 'wake';
                DETACH now;
                PRAGMA user_version = 1;
                """
        let made = try HostCommand.run(["/usr/bin/sqlite3", old, sql], scratch: scratch.path)
        guard made.status == 0 else { throw SocketError("sqlite3 could not write the first schema: \(made.output)") }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
        let placed = try HostCommand.run(
            ["/usr/bin/install", "-o", HostClaim.user, "-g", HostClaim.user, "-m", "0660", old, database], scratch: scratch.path)
        guard placed.status == 0 else { throw SocketError("install of the old database: \(placed.output)") }
    }

    /// The project's first schema (migration 0 of LiveActivityStore's Schema, as shipped).
    static let firstSchema = """
        CREATE TABLE registrations (
            push_token TEXT PRIMARY KEY NOT NULL,
            activity_type TEXT NOT NULL,
            environment TEXT NOT NULL,
            registered_at INTEGER NOT NULL,
            expires_at INTEGER NOT NULL,
            next_push_at INTEGER NOT NULL,
            last_push_at INTEGER,
            wakeup_count INTEGER NOT NULL DEFAULT 0,
            consecutive_failures INTEGER NOT NULL DEFAULT 0,
            last_error TEXT
        ) WITHOUT ROWID;
        CREATE INDEX registrations_by_next_push ON registrations(next_push_at);
        CREATE INDEX registrations_by_registered ON registrations(registered_at);
        CREATE TABLE sweep_runs (
            id INTEGER PRIMARY KEY,
            started_at INTEGER NOT NULL,
            duration_ms INTEGER NOT NULL,
            active INTEGER NOT NULL,
            sent INTEGER NOT NULL,
            skipped INTEGER NOT NULL,
            expired INTEGER NOT NULL,
            removed INTEGER NOT NULL,
            failed INTEGER NOT NULL,
            outcome TEXT NOT NULL
        );
        CREATE INDEX sweep_runs_by_start ON sweep_runs(started_at);
        CREATE TABLE provider_tokens (
            cache_key TEXT PRIMARY KEY NOT NULL,
            token TEXT NOT NULL,
            issued_at INTEGER NOT NULL
        );

        """
}
