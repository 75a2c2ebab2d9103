import Foundation
import TestSupport
import Testing

/// The shipped deployment files agree with each other and pass systemd's own checks (SPEC 7, 8).
/// Unlike the operator path, these need no root: they read the files as shipped.
@Suite("Deployment files")
struct DeploymentFilesTests {
    static let units = [
        "liveactivity-fcgi.socket", "liveactivity-fcgi.service", "liveactivity-sweep.service", "liveactivity-sweep.timer",
    ]

    /// A root tree for `systemd-analyze verify --root`: the host's own unit library, the shipped
    /// units where docs/INSTALL.md step 4 installs them, and stand-ins for the two binaries (verify
    /// checks that each ExecStart exists).
    func unitTree(editing edit: (String, String) -> String = { _, text in text }) throws -> TemporaryDirectory {
        let tree = TemporaryDirectory("units")
        let files = FileManager.default
        try files.createDirectory(atPath: tree.file("etc/systemd/system"), withIntermediateDirectories: true)
        try files.createDirectory(atPath: tree.file("usr/lib/systemd"), withIntermediateDirectories: true)
        try files.createDirectory(atPath: tree.file("opt/liveactivity/bin"), withIntermediateDirectories: true)
        let library = ["/usr/lib/systemd/system", "/lib/systemd/system"].first { files.fileExists(atPath: $0) }
        try files.copyItem(atPath: library ?? "/usr/lib/systemd/system", toPath: tree.file("usr/lib/systemd/system"))
        for unit in Self.units {
            let text = try String(contentsOfFile: packageRoot + "/systemd/" + unit, encoding: .utf8)
            try edit(unit, text).write(toFile: tree.file("etc/systemd/system/" + unit), atomically: true, encoding: .utf8)
        }
        for program in ["liveactivity-fcgi", "liveactivity-sweep"] {
            let path = tree.file("opt/liveactivity/bin/" + program)
            try "#!/bin/sh\n".write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o755)
        }
        return tree
    }

    func verify(_ tree: TemporaryDirectory) throws -> HostOutput {
        try HostCommand.run(
            [systemTool("systemd-analyze") ?? "/usr/bin/systemd-analyze", "verify", "--root=" + tree.path] + Self.units,
            environment: ["PATH": "/usr/bin:/bin"], scratch: tree.path)
    }

    @Test(.enabled(if: systemTool("systemd-analyze") != nil, "systemd-analyze is not installed (package systemd)"))
    func theSystemdUnitsPassSystemdAnalyzeVerify() throws {
        let result = try verify(unitTree())
        // verify exits 0 on unknown keys and bad values, warning on stderr: silence is the pass.
        #expect(result.status == 0 && result.output.isEmpty, "systemd-analyze verify of systemd/: \(result.output)")
    }

    @Test(.enabled(if: systemTool("systemd-analyze") != nil, "systemd-analyze is not installed (package systemd)"))
    func theVerifyCheckCatchesAMistypedKey() throws {
        let tree = try unitTree { unit, text in
            unit == "liveactivity-fcgi.socket" ? text.replacingOccurrences(of: "SocketMode=", with: "SocketMod=") : text
        }
        let result = try verify(tree)
        #expect(result.output.contains("SocketMod"), "a mistyped key went unnoticed: \(result.output)")
    }

    /// Log volume has a bound (SPEC 7): a size cap beside the daily rotation, and a crontab line
    /// that checks it every hour, since the distribution runs logrotate once a day.
    @Test func theLogsAreCappedBySizeAndTheCapIsCheckedHourly() throws {
        let rotation = try String(contentsOfFile: packageRoot + "/cron/liveactivity.logrotate", encoding: .utf8)
        let directives = Set(rotation.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(directives.isSuperset(of: ["daily", "rotate 7", "maxsize 10M"]), "\(rotation)")
        let hourly = try SystemCrontab(path: packageRoot + "/cron/liveactivity.crontab").entries.filter {
            $0.user == "root" && $0.command.contains("/usr/sbin/logrotate /etc/logrotate.d/liveactivity")
        }
        #expect(
            hourly.count == 1 && hourly.first.map { $0.schedule.hasSuffix(" * * * *") && !$0.schedule.hasPrefix("*") } == true)
    }

    /// The shipped rotation run by the real logrotate on files of a test folder, a day after
    /// both were rotated: the one over 10 MB is rotated now, the small one waits for its day.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/logrotate"), "logrotate is not installed"))
    func logrotateRotatesAFileOverTheCapWithinTheDay() throws {
        let folder = TemporaryDirectory("logrotate")
        let shipped = try String(contentsOfFile: packageRoot + "/cron/liveactivity.logrotate", encoding: .utf8)
        let config = folder.file("liveactivity.logrotate")
        try shipped.replacingOccurrences(of: "/var/log/liveactivity", with: folder.path).write(
            toFile: config, atomically: true, encoding: .utf8)
        let big = folder.file("fcgi.log")
        let small = folder.file("sweep.log")
        try Data(repeating: 0x61, count: 11 * 1024 * 1024).write(to: URL(fileURLWithPath: big))
        try Data("a line\n".utf8).write(to: URL(fileURLWithPath: small))
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-M-d-H:m:s"
        let now = formatter.string(from: Date())
        let state = folder.file("status")
        try "logrotate state -- version 2\n\"\(big)\" \(now)\n\"\(small)\" \(now)\n".write(
            toFile: state, atomically: true, encoding: .utf8)
        let run = try runCommand("/usr/sbin/logrotate", ["--state", state, config])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: big + ".1"), "a file over the cap was not rotated: \(run.stderr)")
        let left = try FileManager.default.attributesOfItem(atPath: big)[.size] as? Int
        #expect(left == 0)
        #expect(!FileManager.default.fileExists(atPath: small + ".1"), "a small file was rotated before its day")
    }

    /// The socket: one path in all three files, directly in /run (which exists at boot, so no
    /// folder of ours has to be made again: issue #8, defect 3), with the same owner and mode.
    @Test func theResponderSocketIsTheSameInEveryShippedFile() throws {
        let socketUnit = try String(contentsOfFile: packageRoot + "/systemd/liveactivity-fcgi.socket", encoding: .utf8)
        let service = try String(contentsOfFile: packageRoot + "/systemd/liveactivity-fcgi.service", encoding: .utf8)
        let site = try String(contentsOfFile: packageRoot + "/nginx/liveactivity-site.conf", encoding: .utf8)
        let reboot = try SystemCrontab(path: packageRoot + "/cron/liveactivity.crontab").reboot().command
        let spawn = reboot.split(separator: " ").map(String.init)

        func value(_ key: String, in unit: String) -> String? {
            unit.split(separator: "\n").first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
        }
        func argument(_ flag: String) -> String? {
            spawn.firstIndex(of: flag).flatMap { spawn.indices.contains($0 + 1) ? spawn[$0 + 1] : nil }
        }
        let sitePath = site.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "server unix:") else { return nil }
            return String(line[range.upperBound...].prefix { $0 != " " && $0 != ";" })
        }.first

        let path = value("ListenStream", in: socketUnit)
        #expect(
            path != nil && path == argument("-s") && path == sitePath,
            "socket paths: unit \(path ?? "-"), crontab \(argument("-s") ?? "-"), site \(sitePath ?? "-")")
        #expect(
            path.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path } == "/run",
            "the socket \(path ?? "-") is not directly in /run")
        #expect(value("SocketUser", in: socketUnit) == argument("-U"), "socket owner: unit and spawn-fcgi -U differ")
        #expect(value("SocketGroup", in: socketUnit) == argument("-G"), "socket group: unit and spawn-fcgi -G differ")
        #expect(value("SocketMode", in: socketUnit) == argument("-M"), "socket mode: unit and spawn-fcgi -M differ")
        #expect(
            value("User", in: service) == argument("-u") && value("Group", in: service) == argument("-g"),
            "the responder's user differs")

        // nginx caps its connections at the responder's worker count (see the site's comment).
        let workers = argument("--workers")
        #expect(
            workers != nil && site.contains("max_conns=\(workers ?? "")"),
            "the site's max_conns is not the crontab's --workers \(workers ?? "-")")
        #expect(
            service.contains("--workers \(workers ?? "")"), "the service's --workers differs from the crontab's \(workers ?? "-")"
        )
        // docs/OPERATIONS.md says the same numbers where it tells how to change them together.
        let operations = try Documents.section("## The worker count", in: "docs/OPERATIONS.md")
        for shown in ["--workers \(workers ?? "")", "max_conns=\(workers ?? "")", "keepalive \(workers ?? "")"] {
            #expect(operations.contains(shown), "docs/OPERATIONS.md's worker count does not say \(shown)")
        }
        #expect(site.contains("keepalive \(workers ?? "")"), "the site's keepalive is not the crontab's --workers")
    }
}
