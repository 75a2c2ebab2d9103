import Foundation
import TestSupport
import Testing

/// The upgrade from a build that made the database's folder the sweep's user's home, while a
/// sweep runs (issue 48 point 6). postinst moves the home to /var/lib/liveactivity-sweep, and
/// `usermod --home` refuses (exit 8) while any process of the user runs: under `set -e` that
/// failed the upgrade whenever it met the minute's sweep. Here the sweep is held alive through
/// the upgrade by the stand-in, which answers its one push after 100 s.
extension PackageLifeTests {
    /// The older build's home, then a sweep started as cron (or the timer) starts it, running once
    /// its held push has reached the stand-in. The token held is not one of the site's: its
    /// push is cut short by design.
    func holdASweepInTheOldHome(on host: PackageHost) throws -> ChildProcess? {
        if PackageHost.systemdRuns {
            _ = try host.root("systemctl stop liveactivity-sweep.timer liveactivity-sweep.service")
        }
        let older = try host.root("usermod --home /var/lib/liveactivity \(HostClaim.user)")
        guard older.status == 0 else { throw SocketError("usermod to the older build's home: \(older.output)") }

        let token = testToken(790_001)
        try host.standIn.state().script(token: token, status: 200, reason: nil, delayMilliseconds: 100_000)
        let registered = host.site.post("/wakeup", "{\"pushToken\":\"\(token)\",\"activityType\":\"charging\"}")
        #expect(registered.status == 200, "the held token's registration answered \(registered)")
        let sweep: ChildProcess?
        if PackageHost.systemdRuns {
            sweep = nil
            _ = try host.root("systemctl start --no-block liveactivity-sweep.service")
        } else {
            sweep = try host.sweepAsCronInTheBackground()
        }
        let arrived = waitUntil(timeout: 60) { (try? host.standIn.state().received(token: token).isEmpty) == false }
        #expect(arrived, "the held sweep's push never reached the stand-in: \(sweep?.output ?? "")")
        let uid = getpwnam(HostClaim.user)?.pointee.pw_uid
        let running = host.programProcesses.filter { HostProcesses.owner($0)?.uid == uid }
        #expect(!running.isEmpty, "no sweep of \(HostClaim.user) runs as the upgrade starts")
        return sweep
    }

    /// After the upgrade: the home moved, postinst said so, and the held sweep ended as a stopped
    /// sweep does (exit 0, every outcome written), or on its own.
    func expectTheHomeMoved(by upgrade: HostOutput, held: ChildProcess?, on host: PackageHost) {
        let home = getpwnam(HostClaim.user).map { String(cString: $0.pointee.pw_dir) }
        #expect(home == "/var/lib/liveactivity-sweep", "after the upgrade the sweep's user's home is \(home ?? "none")")
        #expect(
            upgrade.output.contains("the home of \(HostClaim.user) is now /var/lib/liveactivity-sweep"),
            "postinst did not say it moved the home: \(OperatorHost.tail(upgrade.output, lines: 8))")
        #expect(
            FileOwnership("/var/lib/liveactivity-sweep")?.description == "liveactivity:liveactivity 700",
            "/var/lib/liveactivity-sweep is \(FileOwnership("/var/lib/liveactivity-sweep")?.description ?? "missing")")
        if let held {
            let end = held.waitForExit(timeout: 90)
            #expect(end == .exited(0), "the sweep that ran through the upgrade ended \(String(describing: end)): \(held.output)")
        }
    }
}
