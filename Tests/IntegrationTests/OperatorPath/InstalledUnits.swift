import Foundation
import TestSupport

/// A systemd unit file as installed: its `Key=value` lines (a key may repeat, as `Environment=`).
struct UnitFile {
    let name: String
    let values: [(key: String, value: String)]

    init(_ name: String, folder: String = "/lib/systemd/system") throws {
        self.name = name
        let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
        values = text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), !line.hasPrefix("["), let equals = line.firstIndex(of: "=") else { return nil }
            return (String(line[..<equals]), String(line[line.index(after: equals)...]))
        }
    }

    func value(_ key: String) throws -> String {
        guard let found = values.last(where: { $0.key == key }) else { throw SocketError("\(name) has no \(key)=") }
        return found.value
    }

    func all(_ key: String) -> [String] { values.filter { $0.key == key }.map(\.value) }

    /// `ExecStart=` as words (the units use no quoting).
    func command() throws -> [String] { try value("ExecStart").split(separator: " ").map(String.init) }

    /// The command as systemd runs it for a service: its `User=` and `Group=` (with the user's
    /// groups, as systemd's initgroups), in `/` (a service's working folder unless it names one),
    /// with `Environment=` and what systemd sets for a `User=` from its passwd entry (`HOME`,
    /// `USER`, `LOGNAME`, `SHELL`: libpq finds the password file in that `HOME`), no other.
    func serviceCommand() throws -> [String] {
        var environment = all("Environment").flatMap { $0.split(separator: " ").map(String.init) }
        let user = try value("User")
        if let account = getpwnam(user) {
            environment =
                [
                    "HOME=" + String(cString: account.pointee.pw_dir), "USER=" + user, "LOGNAME=" + user,
                    "SHELL=" + String(cString: account.pointee.pw_shell),
                ] + environment
        }
        return [
            systemTool("setpriv") ?? "/usr/bin/setpriv", "--reuid=\(user)", "--regid=\(try value("Group"))",
            "--init-groups", systemTool("env") ?? "/usr/bin/env", "-i", "--chdir=/",
        ] + environment + (try command())
    }
}

/// The package's units run on a host where systemd is not PID 1 (a container), as systemd would
/// run them: `systemd-socket-activate` binds the socket unit's path and hands it to the service's
/// command on standard input (StandardInput=socket), with the socket's owner and mode set as
/// the unit says; the sweep's service is its command as its user.
enum InstalledUnits {
    static let names = [
        "liveactivity-fcgi.socket", "liveactivity-fcgi.service", "liveactivity-sweep.service", "liveactivity-sweep.timer",
    ]

    /// Starts the responder from its socket and service units; stop it with `stop()`.
    static func startResponder(journal: String) throws -> ChildProcess {
        let socket = try UnitFile("liveactivity-fcgi.socket")
        let service = try UnitFile("liveactivity-fcgi.service")
        guard try service.value("StandardInput") == "socket" else {
            throw SocketError("the service does not take its socket on stdin")
        }
        let path = try socket.value("ListenStream")
        try? FileManager.default.removeItem(atPath: path)
        let activate = try ChildProcess(
            systemTool("systemd-socket-activate") ?? "/usr/bin/systemd-socket-activate",
            ["--inetd", "--listen=" + path] + service.serviceCommand(), outputPath: journal)
        guard waitUntil(timeout: 10, { FileManager.default.fileExists(atPath: path) }) else {
            activate.stop()
            throw SocketError("systemd-socket-activate did not bind \(path): \(activate.output)")
        }
        // What systemd does with SocketUser=, SocketGroup= and SocketMode= before any client comes.
        let owner = try socket.value("SocketUser")
        let group = try socket.value("SocketGroup")
        guard let uid = getpwnam(owner)?.pointee.pw_uid, let gid = getgrnam(group)?.pointee.gr_gid,
            chown(path, uid, gid) == 0, chmod(path, mode_t(try socket.value("SocketMode"), radix: 8) ?? 0) == 0
        else {
            activate.stop()
            throw SocketError("could not give \(path) to \(owner):\(group)")
        }
        return activate
    }

    /// Runs the sweep's service once as systemd's timer would start it.
    static func runSweep(scratch: String) throws -> HostOutput {
        try HostCommand.run(
            try UnitFile("liveactivity-sweep.service").serviceCommand(), environment: [:], timeout: 120, scratch: scratch)
    }

    /// `systemd-analyze verify` of the installed units; empty when it says nothing (the pass).
    static func verify(scratch: String) -> String {
        guard let analyze = systemTool("systemd-analyze") else { return "" }
        let result = try? HostCommand.run([analyze, "verify"] + names.map { "/lib/systemd/system/" + $0 }, scratch: scratch)
        guard let result else { return "systemd-analyze did not run" }
        return result.status == 0 ? result.output : "exit \(result.status): \(result.output)"
    }
}
