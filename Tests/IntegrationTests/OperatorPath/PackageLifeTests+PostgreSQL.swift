import Foundation
import TestSupport
import Testing

/// The package on PostgreSQL as the operator sets it up (issue 30 points 3 and 10): the sweep's
/// user's home is a folder of its own (psql runs `~/.psqlrc` there, libpq reads `~/.pgpass`),
/// never the database's folder the web user writes; the sweep's folder is named in the settings
/// (the relative default failed every sweep under systemd and cron); and both shipped ways of
/// running the sweep, cron's line and the unit, find the password file in that home (under cron
/// `setpriv` kept root's `HOME`, so libpq never found it).
extension PackageLifeTests {
    func theSweepOnPostgreSQLFindsItsFolderAndPasswordFile(on host: PackageHost) throws {
        let account = try #require(getpwnam(HostClaim.user))
        let home = String(cString: account.pointee.pw_dir)
        #expect(home == "/var/lib/liveactivity-sweep", "the sweep's user's home is \(home)")
        #expect(
            FileOwnership(home)?.description == "liveactivity:liveactivity 700",
            "\(home) is \(FileOwnership(home)?.description ?? "missing")")
        #expect(FileOwnership("/var/lib")?.description == "root:root 755", "a folder above the home is writable by others")

        // A server whose role logs in by password only, as across a network.
        let cluster = try PostgresCluster("package-pg")
        try cluster.start()
        chmod(cluster.folder, 0o711)  // the sweep's user reaches the socket through the test's folder
        let database = try cluster.createDatabase("package")
        let role = cluster.uniqueName("sweep")
        let password = "pw-\(UInt64.random(in: 1...UInt64.max))"
        try cluster.psql(
            "CREATE ROLE \(role) LOGIN PASSWORD '\(password)'; GRANT liveactivity_password_login TO \(role); "
                + "ALTER DATABASE \(database.name) OWNER TO \(role)")
        let passfile = home + "/.pgpass"
        try Data("\(cluster.socketDirectory):\(cluster.port):\(database.name):\(role):\(password)\n".utf8)
            .write(to: URL(fileURLWithPath: passfile))
        chown(passfile, account.pointee.pw_uid, account.pointee.pw_gid)
        chmod(passfile, 0o600)
        let settings = try String(contentsOfFile: PackageHost.configPath, encoding: .utf8)
        defer {
            try? settings.write(toFile: PackageHost.configPath, atomically: false, encoding: .utf8)
            try? FileManager.default.removeItem(atPath: passfile)
            try? FileManager.default.removeItem(atPath: home + "/lock")
            try? FileManager.default.removeItem(atPath: home + "/clock-mark")
            _ = try? cluster.psql("DROP DATABASE IF EXISTS \(database.name) WITH (FORCE); DROP ROLE IF EXISTS \(role)")
        }
        let uri = "postgresql://\(role)@/\(database.name)?host=\(PostgresCluster.percentEncoded(cluster.socketDirectory))"
        try host.append("LIVEACTIVITY_DB=\(uri)\n", to: PackageHost.configPath)

        // The settings file's sweep folder line as shipped, commented out: the sweep says so.
        let shippedLine = settings.split(separator: "\n").first { $0.hasPrefix("#LIVEACTIVITY_SWEEP_DIR=") }
        #expect(
            shippedLine == "#LIVEACTIVITY_SWEEP_DIR=/var/lib/liveactivity-sweep", "the settings name \(shippedLine ?? "none")")
        if !PackageHost.systemdRuns {
            let before = host.log("sweep.log").split(separator: "\n").count
            let refused = try host.sweepAsCron()
            let added = host.log("sweep.log").split(separator: "\n").dropFirst(before)
            #expect(refused.status == 2, "without its folder the sweep on PostgreSQL exited \(refused.status)")
            #expect(added.count == 1 && added.first?.contains("LIVEACTIVITY_SWEEP_DIR is not set") == true, "\(Array(added))")
        }
        // Uncommented, as README.Debian says.
        try host.append((shippedLine.map { String($0.dropFirst()) } ?? "") + "\n", to: PackageHost.configPath)
        if !PackageHost.systemdRuns {
            let cron = try host.sweepAsCron()
            #expect(
                cron.status == 0,
                "cron's sweep line on PostgreSQL exited \(cron.status): \(OperatorHost.tail(host.log("sweep.log"), lines: 2))")
        }
        let unit = try InstalledUnits.runSweep(scratch: host.staging.path)
        #expect(unit.status == 0, "the sweep's unit on PostgreSQL exited \(unit.status): \(OperatorHost.tail(unit.output))")
        #expect(FileManager.default.fileExists(atPath: home + "/lock"), "the sweep took no lock in its folder")
        let migrated = try cluster.psql("SELECT count(*) FROM liveactivity_schema", database: database.name)
        #expect(migrated == "1", "the sweep did not migrate the database as its role: \(migrated)")
    }
}
