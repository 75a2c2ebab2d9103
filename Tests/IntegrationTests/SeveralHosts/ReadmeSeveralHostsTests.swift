import Foundation
import LiveActivityDomain
import TestSupport
import Testing

/// docs/SEVERAL-HOSTS.md as written: its configuration block run for two hosts on this machine
/// (each with a config file, a sweep folder and a name of its own, `hostname -s` being the same
/// for both here), against a primary and its synchronous streaming standby named in one URI; the
/// sweeps started as cron starts them (the config file alone); then the primary lost and the
/// standby promoted, and the same two config files sweep on.
@Suite("docs/SEVERAL-HOSTS.md: several hosts")
struct ReadmeSeveralHostsTests {
    static let readmeURI =
        "postgresql://db1.example.net,db2.example.net/liveactivity?target_session_attrs=read-write&sslmode=verify-full"

    static let configPath = "/etc/liveactivity/liveactivity.conf"

    /// The first `sh` block under "What each host runs".
    static func configurationBlock() throws -> String {
        guard
            let block = try MarkdownBlock.all("sh", in: "docs/SEVERAL-HOSTS.md").first(where: {
                $0.heading == "What each host runs"
            })
        else { throw SocketError("docs/SEVERAL-HOSTS.md has no configuration block under 'What each host runs'") }
        return block.text
    }

    @Test func twoHostsConfiguredAsTheReadmeSaysShareTheWorkAndSurviveAFailover() throws {
        let block = try Self.configurationBlock()
        #expect(block.contains(Self.readmeURI) && block.contains(Self.configPath))
        let primary = try PostgresCluster("readme-primary")
        try primary.start()
        let created = try primary.createDatabase("liveactivity")
        let standby = try primary.makeStandby(synchronous: true)
        let uri = PostgresCluster.readWriteURI(hosts: [primary, standby], database: created.name)
        let fixture = try SweepFixture(database: try TestDatabase(postgresURI: uri))

        // Step 3's file as on one host (its SQLite path, the APNs settings), then the block.
        var configs: [String: String] = [:]
        for host in ["web1", "web2"] {
            let config = fixture.folder.file("\(host).env")
            var base = fixture.standIn.sweepEnvironment(database: "/var/lib/liveactivity/liveactivity.sqlite")
            base.removeValue(forKey: "PATH")
            // Two sweeps at once against one stand-in of 4 workers: streams it can queue.
            base["LIVEACTIVITY_APNS_CONCURRENCY"] = "100"
            try (base.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n") + "\n")
                .write(toFile: config, atomically: true, encoding: .utf8)
            let script = block.replacingOccurrences(of: Self.configPath, with: config)
                .replacingOccurrences(of: Self.readmeURI, with: uri)
                .replacingOccurrences(of: "/var/lib/liveactivity-sweep", with: fixture.folder.file("\(host)-sweep"))
                .replacingOccurrences(of: "$(hostname -s)", with: host)
            let ran = try runCommand("/bin/bash", ["-euo", "pipefail", "-c", script])
            #expect(ran.status == 0, "\(ran.stderr)")
            let lines = try String(contentsOfFile: config, encoding: .utf8).split(separator: "\n")
            #expect(lines.filter { $0.hasPrefix("LIVEACTIVITY_DB=") }.map(String.init) == ["LIVEACTIVITY_DB=\(uri)"], "\(lines)")
            #expect(lines.contains("LIVEACTIVITY_HOST_NAME=\(host)"))
            configs[host] = config
        }

        /// Both hosts' cron lines at the same minute: the config file and PATH, nothing else.
        func sweepBoth() throws -> [String: Int] {
            let sweeps = try configs.mapValues { config in
                try ChildProcess(
                    product("liveactivity-sweep"), environment: ["LIVEACTIVITY_CONFIG": config, "PATH": "/usr/bin:/bin"],
                    outputPath: config + ".log")
            }
            return sweeps.mapValues { sweep in
                #expect(sweep.waitForExit(timeout: 120) == .exited(0), "\(sweep.output)")
                return SweepingHosts.sent(sweep.output)
            }
        }

        try fixture.register(1...2000)
        let first = try sweepBoth()
        #expect(first.values.reduce(0, +) == 2000, "\(first)")
        let hosts = try fixture.database.rows("SELECT DISTINCT host FROM sweep_runs ORDER BY host").map { $0[0] ?? "" }
        #expect(hosts == ["web1", "web2"])

        // The primary is lost; the standby is promoted as the document says (pg_promote); the same
        // files find it.
        primary.kill()
        try standby.promote()
        try fixture.register(2001...2500)
        let after = try sweepBoth()
        #expect(after.values.reduce(0, +) == 500, "\(after)")
        let counts = Dictionary(grouping: try fixture.received(), by: \.deviceToken).mapValues(\.count)
        #expect(counts.count == 2500 && counts.values.allSatisfy { $0 == 1 }, "each device pushed once between them")
    }
}
