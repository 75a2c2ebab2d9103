import Foundation
import TestSupport

/// Commands run on the host the way an operator's shell or cron runs them. Output goes to a file,
/// not a pipe: a command that leaves a daemon behind (spawn-fcgi, nginx) must not hold the test
/// up waiting for the end of a pipe the daemon inherited.
enum HostCommand {
    /// A root shell's environment (what `su -` gives, without the test runner's variables).
    static let rootEnvironment = [
        "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root", "LOGNAME": "root",
        "USER": "root", "SHELL": "/bin/sh", "LANG": "C.UTF-8",
    ]

    /// Runs `/bin/sh <flags> -c script` in `directory`, as root or, with `user`, as that user with
    /// its primary group and supplementary groups (setpriv --init-groups, as cron does).
    /// `arguments` are the script's `$1`, `$2` ...
    static func shell(
        _ script: String, arguments: [String] = [], flags: [String] = [], as user: String? = nil, in directory: String = "/",
        environment: [String: String] = rootEnvironment, timeout: TimeInterval = 120, scratch: String
    ) throws -> HostOutput {
        var command = ["/bin/sh", "-c", "cd \"$1\" || exit 97; shift; exec \"$@\"", "sh", directory]
        if let user {
            guard let account = getpwnam(user) else { throw SocketError("no user \(user) on this host") }
            command += [
                systemTool("setpriv") ?? "/usr/bin/setpriv", "--reuid=\(account.pointee.pw_uid)",
                "--regid=\(account.pointee.pw_gid)", "--init-groups",
            ]
        }
        command += ["/bin/sh"] + flags + ["-c", script, "sh"] + arguments
        return try run(command, environment: environment, timeout: timeout, scratch: scratch)
    }

    /// Runs a crontab entry as cron does: `/bin/sh -c` as the entry's user, from that user's
    /// home, with cron's small environment.
    static func cron(_ entry: SystemCrontab.Entry, scratch: String) throws -> HostOutput {
        guard let account = getpwnam(entry.user) else { throw SocketError("cron: no user \(entry.user)") }
        let home = String(cString: account.pointee.pw_dir)
        let environment = ["HOME": home, "LOGNAME": entry.user, "PATH": "/usr/bin:/bin", "SHELL": "/bin/sh"]
        return try shell(
            entry.command, as: entry.user == "root" ? nil : entry.user, in: home, environment: environment, scratch: scratch)
    }

    /// Runs `command` to completion (killed after `timeout` seconds) with its output in a file in
    /// `scratch`. Spawned by TestSupport's `spawnInOwnGroup` (no signal blocked, none of the runner's
    /// descriptors) and reaped here with waitpid: Foundation's Process learns of an exit from
    /// SIGCHLD, which the test runner's threads block, and a command whose only child becomes a
    /// daemon would then never be seen to end. Another user's run is `shell`'s setpriv, not the spawn's.
    static func run(
        _ command: [String], environment: [String: String] = rootEnvironment, timeout: TimeInterval = 120,
        scratch: String
    ) throws -> HostOutput {
        let outputPath = scratch + "/command-\(UUID().uuidString.prefix(8)).out"
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var redirections = SpawnRedirections()
        redirections.output = .file(outputPath)
        let pid = try spawnInOwnGroup(command[0], Array(command.dropFirst()), environment: environment, redirections)

        var status: Int32 = 0
        let finished = waitUntil(timeout: timeout) { waitpid(pid, &status, WNOHANG) == pid }
        if !finished {
            kill(pid, SIGKILL)
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard finished else { return HostOutput(status: -1, output: output + "\ntimed out after \(Int(timeout)) s") }
        let exitCode = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return HostOutput(status: exitCode, output: output)
    }
}

/// A host command's exit status and what it printed (stdout and stderr together, in order).
struct HostOutput {
    let status: Int32
    let output: String
}

/// What `/proc` says about this host's processes.
enum HostProcesses {
    /// The pid written in `path`, if the file holds one.
    static func pid(inFile path: String) -> Int32? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// A process counts as gone once its entry is missing or it is a zombie: PID 1 here may be
    /// slow to reap the orphans the test kills.
    static func isGone(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return true }
        return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
    }

    /// `pid` and every living descendant of it.
    static func tree(of pid: Int32) -> [Int32] {
        guard !isGone(pid) else { return [] }
        return [pid] + childProcesses(of: pid).flatMap { tree(of: $0) }
    }

    /// The command line of `pid`, arguments joined by spaces.
    static func commandLine(_ pid: Int32) -> String {
        let data = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
        return String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
    }

    /// The environment `pid` was started with, as `NAME=value` entries.
    static func environment(_ pid: Int32) -> [String] {
        let data = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))) ?? Data()
        return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The real uid and gid of `pid` (`Uid:` and `Gid:` of `/proc/PID/status`).
    static func owner(_ pid: Int32) -> (uid: UInt32, gid: UInt32)? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func first(_ key: String) -> UInt32? {
            status.split(separator: "\n").first { $0.hasPrefix(key) }
                .flatMap { $0.split(whereSeparator: { $0 == "\t" || $0 == " " }).dropFirst().first }
                .flatMap { UInt32($0) }
        }
        guard let uid = first("Uid:"), let gid = first("Gid:") else { return nil }
        return (uid, gid)
    }

    /// The shared libraries mapped into `pid`.
    static func mappedLibraries(_ pid: Int32) -> Set<String> {
        let maps = (try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8)) ?? ""
        return Set(
            maps.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }.filter {
                $0.contains(".so")
            })
    }

    /// Kills every process in `pids` with SIGKILL and waits up to 10 s until each is gone.
    @discardableResult
    static func kill(_ pids: [Int32]) -> Bool {
        for pid in pids { Glibc.kill(pid, SIGKILL) }
        return waitUntil(timeout: 10) { pids.allSatisfy(isGone) }
    }
}

/// Owner, group and mode of a file.
struct FileOwnership: Equatable, CustomStringConvertible {
    let user: String
    let group: String
    let mode: Int

    init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        user = getpwuid(info.st_uid).map { String(cString: $0.pointee.pw_name) } ?? String(info.st_uid)
        group = getgrgid(info.st_gid).map { String(cString: $0.pointee.gr_name) } ?? String(info.st_gid)
        mode = Int(info.st_mode) & 0o7777
    }

    var description: String { "\(user):\(group) \(String(mode, radix: 8))" }
}

/// The inode of the file at `path` (following links: `/proc/PID/exe` gives the running binary's).
func inode(of path: String) -> UInt64? {
    var info = stat()
    return stat(path, &info) == 0 ? UInt64(info.st_ino) : nil
}
