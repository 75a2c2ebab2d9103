import Foundation
import TestSupport
import Testing

/// What the maintainer scripts may not change when they run again: the operator's settings, the
/// owners and modes they made, the user and its group, dpkg's override, the registrations.
struct InstalledState: Equatable {
    let settings: String
    let ownerships: [String]
    let account: String
    let webUserGroups: String
    let overrides: String
    let registrations: Set<String>

    init(_ host: PackageHost) {
        settings = (try? String(contentsOfFile: PackageHost.configPath, encoding: .utf8)) ?? ""
        ownerships = [PackageHost.configPath, "/var/lib/liveactivity", PackageHost.logFolder, PackageHost.databasePath].map {
            "\($0) \(FileOwnership($0)?.description ?? "missing")"
        }
        account = (try? HostCommand.run(["/usr/bin/getent", "passwd", HostClaim.user], scratch: host.staging.path))?.output ?? ""
        webUserGroups =
            (try? HostCommand.run(["/usr/bin/id", "-Gn", HostClaim.webUser], scratch: host.staging.path))?.output ?? ""
        overrides =
            (try? HostCommand.run(["/usr/bin/dpkg-statoverride", "--list"], scratch: host.staging.path))?.output
            .split(separator: "\n").filter { $0.contains("liveactivity") }.joined(separator: "\n") ?? ""
        registrations = (try? host.storedTokens()) ?? []
    }
}

extension PackageLifeTests {
    /// Installing twice: docs/INSTALL.md's apt line again (apt finds nothing to do), then a reinstall,
    /// which runs every maintainer script again. They find everything in place and change
    /// nothing, and one responder runs afterwards, serving the same registrations.
    func installingTwiceChangesNothing(_ package: BuiltPackage, on host: PackageHost, edit: String) throws {
        let folder = host.staging.file("first")
        let state = InstalledState(host)
        #expect(state.settings.hasSuffix(edit), "the operator's edit is not at the end of the settings file")
        #expect(state.overrides.split(separator: "\n").count == 1, "dpkg's overrides: \(state.overrides)")

        let again = try host.root(readmeBlock("apt install ./", of: host).text, in: folder)
        #expect(
            again.status == 0,
            "docs/INSTALL.md's apt install, a second time, exited \(again.status): \(OperatorHost.tail(again.output))")
        #expect(InstalledState(host) == state, "installing the same package again changed the host")

        let running = host.supervisor
        let reinstalled = try host.root("apt install --reinstall ./" + package.fileName, in: folder, startsAllowed: true)
        #expect(
            reinstalled.status == 0,
            "apt install --reinstall exited \(reinstalled.status): \(OperatorHost.tail(reinstalled.output))")
        let after = InstalledState(host)
        #expect(after == state, "the reinstall changed the host: before \(state), after \(after)")
        try expectTheResponderStarted(by: reinstalled, on: host, what: "the reinstall", startsAllowed: true)
        if !PackageHost.systemdRuns {
            let supervisors = host.programProcesses.filter { HostProcesses.commandLine($0).contains("--supervise") }
            #expect(supervisors.count == 1, "after the reinstall \(supervisors.count) supervisors run: \(supervisors)")
            #expect(host.supervisor != running, "the reinstall did not restart the responder on the programs it installed")
        }
        let refused = host.site.register(2)
        #expect(refused.isEmpty, "after the reinstall registrations answered \(refused)")
    }

    /// The upgrade to the second version, from the older build's home of the sweep's user and
    /// while a sweep runs: the operator's edit and every registration stay, the home moves, the
    /// responder runs the new programs, and pushes go on. (Both versions hold the same programs,
    /// so the schema stays; the hand-made test upgrades an older schema.)
    func theUpgradeKeepsEverything(to package: BuiltPackage, on host: PackageHost, edit: String) throws {
        let folder = host.staging.file("second")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: package.path, toPath: folder + "/" + package.fileName)
        let schema = try host.schemaVersion()
        let held = try holdASweepInTheOldHome(on: host)
        let upgraded = try host.root(readmeBlock("apt install ./", of: host).text, in: folder, startsAllowed: true)
        #expect(upgraded.status == 0, "the upgrade exited \(upgraded.status): \(OperatorHost.tail(upgraded.output))")
        expectTheHomeMoved(by: upgraded, held: held, on: host)
        #expect(host.packageStatus == "install ok installed \(package.version)", "dpkg says \(host.packageStatus ?? "nothing")")
        let settings = (try? String(contentsOfFile: PackageHost.configPath, encoding: .utf8)) ?? ""
        #expect(settings.contains(edit), "the upgrade lost the operator's edit of the settings")
        #expect(
            FileOwnership(PackageHost.configPath)?.description == "root:liveactivity 640",
            "after the upgrade the settings are \(FileOwnership(PackageHost.configPath)?.description ?? "missing")")
        try expectTheResponderStarted(by: upgraded, on: host, what: "the upgrade", startsAllowed: true)
        if !PackageHost.systemdRuns, let responder = host.responder() {
            #expect(
                inode(of: "/proc/\(responder)/exe") == inode(of: "/usr/bin/liveactivity-fcgi"),
                "after the upgrade the responder does not run the installed /usr/bin/liveactivity-fcgi")
        }
        let lost = Set(host.site.acknowledged).subtracting(try host.storedTokens())
        #expect(lost.isEmpty, "the upgrade lost \(lost.count) of \(host.site.acknowledged.count) registrations")
        try pushesGoOutThroughTheCronLine(on: host, count: 5)
        let schemaAfter = try host.schemaVersion()
        #expect(schemaAfter == schema, "the schema went from \(schema) to \(schemaAfter)")
    }

    /// `apt remove` as docs/INSTALL.md writes it: every program stops, the settings, the database and the
    /// logs stay, and cron's lines, run as cron runs them, do nothing and say nothing.
    func removalStopsEverythingAndKeepsTheData(on host: PackageHost) throws {
        let removed = try host.root(host.readme.inlineCommand(startingWith: "apt remove "))
        #expect(
            removed.status == 0, "docs/INSTALL.md's apt remove exited \(removed.status): \(OperatorHost.tail(removed.output))")
        #expect(
            host.packageStatus?.hasPrefix("deinstall ok config-files") == true, "dpkg says \(host.packageStatus ?? "nothing")")
        #expect(waitUntil(timeout: 10) { host.programProcesses.isEmpty }, "programs still run: \(host.programProcesses)")
        for path in ["/run/liveactivity-fcgi.sock", "/run/liveactivity-fcgi.pid"] {
            #expect(!FileManager.default.fileExists(atPath: path), "\(path) is left after the removal")
        }
        for path in [PackageHost.configPath, PackageHost.databasePath, "/etc/cron.d/liveactivity"] {
            #expect(FileManager.default.fileExists(atPath: path), "the removal took \(path)")
        }
        #expect(getpwnam(HostClaim.user) != nil, "the removal took the user liveactivity")
        let unavailable = host.site.registerNewToken()
        #expect(
            unavailable.status == 503, "with the programs removed, a registration answered \(unavailable.status), not nginx's 503"
        )

        let logs = ["fcgi.log", "sweep.log"].map { host.log($0) }
        for entry in try host.crontab().entries {
            let run = try HostCommand.cron(entry, scratch: host.staging.path)
            #expect(
                run.status == 0 && run.output.isEmpty,
                "after the removal, cron's '\(entry.schedule)' line exited \(run.status): \(run.output)")
        }
        #expect(["fcgi.log", "sweep.log"].map { host.log($0) } == logs, "a cron line wrote to the logs after the removal")
        #expect(host.programProcesses.isEmpty, "a cron line started a program after the removal")
    }

    /// `apt purge` as docs/INSTALL.md writes it, once the operator's site no longer includes the snippet:
    /// the settings, the database and the logs go - the package's own and nginx's of the
    /// snippet, rotations included (issue 48 point 9) -, the user stays, nginx still starts.
    func purgeRemovesTheRest(on host: PackageHost) throws {
        for log in PackageHost.nginxLogs {
            #expect(FileManager.default.fileExists(atPath: log), "nginx, serving the snippet, wrote no \(log)")
        }
        for rotation in PackageHost.nginxLogRotations {
            try Data("a day's lines, rotated by nginx's logrotate\n".utf8).write(to: URL(fileURLWithPath: rotation))
        }
        let unlinked = try host.root(
            "rm /etc/nginx/sites-enabled/liveactivity /etc/nginx/sites-available/liveactivity && nginx -s reload")
        #expect(unlinked.status == 0, "removing the site: \(unlinked.output)")
        let purged = try host.root(host.readme.inlineCommand(startingWith: "apt purge "))
        #expect(purged.status == 0, "docs/INSTALL.md's apt purge exited \(purged.status): \(OperatorHost.tail(purged.output))")
        #expect(
            host.packageStatus == nil || host.packageStatus?.hasPrefix("unknown ok not-installed") == true,
            "dpkg says \(host.packageStatus ?? "")")
        for path in [
            "/etc/liveactivity", "/var/lib/liveactivity", "/var/lib/liveactivity-sweep", PackageHost.logFolder,
            "/etc/cron.d/liveactivity",
            "/etc/logrotate.d/liveactivity", "/etc/nginx/conf.d/liveactivity.conf", "/etc/nginx/snippets/liveactivity.conf",
        ] + PackageHost.nginxLogs + PackageHost.nginxLogRotations {
            #expect(!FileManager.default.fileExists(atPath: path), "the purge left \(path)")
        }
        let overrides = try HostCommand.run(["/usr/bin/dpkg-statoverride", "--list"], scratch: host.staging.path)
        #expect(!overrides.output.contains("liveactivity"), "the purge left a dpkg override: \(overrides.output)")
        #expect(getpwnam(HostClaim.user) != nil, "the purge removed the user liveactivity (Debian keeps it)")
        let test = try host.root("nginx -t")
        #expect(test.status == 0, "nginx -t after the purge: \(OperatorHost.tail(test.output))")
    }
}
