import Foundation
import TestSupport

/// The host's file system as a purge must leave it (SPEC 7: "leaves nothing else behind"): every
/// path under /etc, /usr, /var, /opt and /srv with its type, mode and owners (and size and time
/// for files), and the package's names in /run, read by `find`. What changes on its own while a
/// test runs, and is no package's business, is left out: apt's and dpkg's own state and caches,
/// logs, nginx's and logrotate's state, the toolchain, temporary files, what the container and
/// other packages' triggers rewrite (the loader's cache, alternatives, ucf).
struct FileSystemSnapshot {
    static let roots = ["/etc", "/usr", "/var", "/opt", "/srv"]
    static let skipped = [
        "/opt/swift", "/var/cache", "/var/lib/apt", "/var/lib/dpkg", "/var/log", "/var/tmp", "/var/lib/nginx",
        "/var/lib/logrotate", "/var/lib/postgresql", "/var/lib/systemd/timers", "/var/lib/ucf", "/var/backups",
        "/var/lib/liveactivity-operator-path.created", "/etc/ld.so.cache", "/etc/alternatives", "/etc/resolv.conf",
        "/etc/hosts", "/etc/hostname",
    ]
    /// The user database: the package adds its user, and a purge keeps it (Debian's advice).
    static let accounts = ["passwd", "group", "shadow", "gshadow"].flatMap { ["/etc/" + $0, "/etc/\($0)-"] }

    /// Path → "type mode user group [size time]".
    let entries: [String: String]

    static func take(scratch: String) throws -> FileSystemSnapshot {
        let prune = skipped.flatMap { ["-path", $0, "-o"] }.dropLast()
        let find = systemTool("find") ?? "/usr/bin/find"
        let listing = try HostCommand.run(
            [find] + roots.filter { FileManager.default.fileExists(atPath: $0) } + ["-xdev", "("] + prune
                + [")", "-prune", "-o", "-printf", "%p\\t%y %m %u %g %s %T@\\n"], timeout: 300, scratch: scratch)
        let run = try HostCommand.run(
            [find, "/run", "-maxdepth", "1", "-name", "*liveactivity*", "-printf", "%p\\t%y %m %u %g %s %T@\\n"],
            scratch: scratch)
        guard listing.status == 0 || !listing.output.isEmpty else { throw SocketError("find failed: \(listing.output)") }
        var entries: [String: String] = [:]
        for line in (listing.output + run.output).split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let fields = parts[1].split(separator: " ")
            // A folder's size and time change as entries come and go; its type, mode and owners must not.
            entries[String(parts[0])] = fields.first == "d" ? fields.prefix(4).joined(separator: " ") : String(parts[1])
        }
        return FileSystemSnapshot(entries: entries)
    }

    /// What differs in `later`, one line each, leaving out the user database's contents.
    func differences(to later: FileSystemSnapshot) -> [String] {
        var lines: [String] = []
        for path in Set(entries.keys).union(later.entries.keys).sorted() {
            let before = entries[path]
            let after = later.entries[path]
            if before == after { continue }
            if Self.accounts.contains(path), let before, let after,
                before.split(separator: " ").prefix(4) == after.split(separator: " ").prefix(4)
            {
                continue
            }
            switch (before, after) {
            case (nil, let after?): lines.append("added \(path) (\(after))")
            case (let before?, nil): lines.append("removed \(path) (\(before))")
            default: lines.append("changed \(path): \(before ?? "") -> \(after ?? "")")
            }
        }
        return lines
    }

    /// `differences` split by who made them: lines about paths another package owns (dpkg -S)
    /// came from apt runs of others on this shared machine, not from this package.
    static func attribute(_ lines: [String], scratch: String) -> (ours: [String], others: [String]) {
        var ours: [String] = []
        var others: [String] = []
        for line in lines {
            let path = line.split(separator: " ").dropFirst().first.map { String($0.hasSuffix(":") ? $0.dropLast() : $0) } ?? ""
            let owner = try? HostCommand.run(
                [systemTool("dpkg-query") ?? "/usr/bin/dpkg-query", "-S", path], scratch: scratch)
            let owned = owner.map { $0.status == 0 && !$0.output.hasPrefix(HostClaim.packageName + ":") } ?? false
            if owned || path.contains("/__pycache__") { others.append(line) } else { ours.append(line) }
        }
        return (ours, others)
    }
}
