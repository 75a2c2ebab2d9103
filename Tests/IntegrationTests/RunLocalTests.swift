import Foundation
import TestSupport
import Testing

/// `scripts/run-local --once` (with `--postgres` in the PostgreSQL case), as a newcomer runs it, on free ports and a state folder of the
/// test's own, with the binaries this build made (issue 18 point 7): what it prints as received by
/// the stand-in is the wake and the widgets push, not its own readiness probe (a `405 MethodNotAllowed` line); then
/// it acks the push as the app does and shows the device's history and the delivery line (issue 16).
@Suite("run-local")
struct RunLocalTests {
    @Test(
        .enabled(if: systemTool("nginx") != nil && systemTool("curl") != nil, "run-local needs nginx and curl"),
        arguments: TestEngine.real)
    func theStandInShowsThePushAndNothingElse(engine: TestEngine) throws {
        let state = TemporaryDirectory("runlocal")
        let binaries = URL(fileURLWithPath: product("liveactivity-fcgi")).deletingLastPathComponent().path
        var environment = ProcessInfo.processInfo.environment.filter { $0.key == "PATH" || $0.key == "HOME" }
        environment.merge([
            "LIVEACTIVITY_LOCAL_STATE": state.path, "LIVEACTIVITY_LOCAL_BIN": binaries,
            "LIVEACTIVITY_LOCAL_PORT": "\(freePort())", "LIVEACTIVITY_LOCAL_APNS_PORT": "\(freePort())",
        ]) { _, new in new }
        // On PostgreSQL, `--postgres`: the same loop on a throwaway server of its own.
        let postgres = engine == .postgres
        let run = try runCommand(
            "/bin/bash", [packageRoot + "/scripts/run-local", "--once"] + (postgres ? ["--postgres"] : []),
            environment: environment, timeout: 180)
        #expect(run.status == 0, "run-local --once exited \(run.status): \(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        guard let shown = lines.firstIndex(of: "-- the stand-in received:") else {
            Issue.record("no stand-in section: \(run.stdout)")
            return
        }
        let received = lines[(shown + 1)...].prefix { !$0.hasPrefix("run-local:") && !$0.hasPrefix("-- ") }
        // The wake and the widgets push (issue 31), each answered 200 over HTTP/2.
        #expect(received.count == 2, "the stand-in shows \(received.count) lines: \(received)")
        #expect(received.filter { $0.contains(" 200 HTTP/2.0 background/5 ") }.count == 1, "\(received)")
        #expect(
            received.filter { $0.contains(" 200 HTTP/2.0 widgets/- {\"aps\":{\"content-changed\":true}}") }.count == 1,
            "\(received)")
        #expect(!run.stdout.contains("MethodNotAllowed") && !run.stdout.contains(" 405 "), "\(run.stdout)")
        #expect(lines.contains { $0.hasPrefix("-- the app woke and acknowledges it") })
        #expect(lines.contains { $0.contains("  200  apns-id ") && $0.contains("  acked ") }, "history: \(run.stdout)")
        #expect(lines.contains { $0.hasPrefix("Delivery over 24 h, debug: 1 answered 200, 1 acked (100.0%)") }, "\(run.stdout)")
        #expect(lines.last == "run-local: the wake and the widgets push arrived and the ack matched the wake; stopping.")
        let sqliteFile = FileManager.default.fileExists(atPath: state.file("liveactivity.sqlite"))
        #expect(sqliteFile != postgres, "the SQLite file is made exactly when SQLite is the engine")
        if postgres {
            let started = lines.first { $0.hasPrefix("== starting a throwaway PostgreSQL in /") }
            let folder = try #require(started?.split(separator: " ").last.map(String.init), "\(run.stdout)")
            #expect(!FileManager.default.fileExists(atPath: folder), "the throwaway server's folder \(folder) is left")
        }
        #expect(
            run.stdout.contains(
                "== the status page: http://127.0.0.1:\(environment["LIVEACTIVITY_LOCAL_PORT"] ?? "")/wakeup/status"))
        if !postgres { try expectTheReadmesSample(matches: run.stdout) }
    }

    /// README's sample of what run-local prints (issue 33: it had drifted): each of its headings
    /// (`== `, `-- `), commands (`$ `) and answers (`{`) is a line run-local printed, up to the
    /// time, the ports, the token and other digits.
    func expectTheReadmesSample(matches output: String) throws {
        let sample = try #require(
            MarkdownBlock.all("", in: "README.md").first { $0.heading == "Two commands" && $0.text.hasPrefix("== ") },
            "README's \"Two commands\" shows no sample of run-local's output")
        func shape(_ line: Substring) -> String {
            String(line.replacing(/\b[0-9a-f]{8}\b/, with: "TOKEN").replacing(/[0-9]+/, with: "0"))
        }
        let printed = Set(output.split(separator: "\n").map(shape))
        let shown = sample.text.split(separator: "\n").filter { line in
            ["== ", "-- ", "$ ", "{"].contains { line.hasPrefix($0) }
        }
        #expect(shown.count >= 10, "README's sample shows \(shown.count) lines")
        for line in shown { #expect(printed.contains(shape(line)), "README's sample line is not what run-local prints: \(line)") }
    }

    /// `scripts/run-local --hosts 2 --once` (README "Several hosts"): two hosts, each a responder
    /// and a sweep of its own name, behind one nginx, on one throwaway PostgreSQL; both sweeps
    /// start at once and every device is pushed exactly once between them.
    @Test(.enabled(if: systemTool("nginx") != nil && systemTool("curl") != nil, "run-local needs nginx and curl"))
    func twoHostsShareOneDatabaseAndPushEachDeviceOnce() throws {
        let state = TemporaryDirectory("runlocal-hosts")
        let binaries = URL(fileURLWithPath: product("liveactivity-fcgi")).deletingLastPathComponent().path
        var environment = ProcessInfo.processInfo.environment.filter { $0.key == "PATH" || $0.key == "HOME" }
        environment.merge([
            "LIVEACTIVITY_LOCAL_STATE": state.path, "LIVEACTIVITY_LOCAL_BIN": binaries,
            "LIVEACTIVITY_LOCAL_PORT": "\(freePort())", "LIVEACTIVITY_LOCAL_APNS_PORT": "\(freePort())",
        ]) { _, new in new }
        let run = try runCommand(
            "/bin/bash", [packageRoot + "/scripts/run-local", "--hosts", "2", "--once"], environment: environment,
            timeout: 300)
        #expect(run.status == 0, "run-local --hosts 2 --once exited \(run.status): \(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let sent = ["host-1", "host-2"].map { host in
            lines.first { $0.hasPrefix("-- \(host) sent ") }.flatMap { Int($0.split(separator: " ")[3].dropLast()) } ?? -1
        }
        #expect(sent.allSatisfy { $0 >= 0 } && sent.reduce(0, +) == 2500, "\(sent): \(run.stdout)")
        #expect(lines.contains { $0.hasPrefix("Hosts (last sweep each): host-1 ") && $0.contains("host-2") }, "\(run.stdout)")
        #expect(lines.last == "run-local: 2500 devices pushed once each between the 2 hosts; stopping.", "\(run.stdout)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
    }
}
