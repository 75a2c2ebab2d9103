import Foundation
import TestSupport
import Testing

/// SPEC 7 (issue 26, point 4): no process running as root opens, creates or appends to a file by
/// a path inside a folder that a less-privileged user can write. A crontab line run as root that
/// appends to `/var/log/liveactivity/fcgi.log` would otherwise follow a link the sweep's user put
/// there in the log's place, and write wherever it points.
enum RootWrites {
    /// The files root's lines of `crontab` write by path: the targets of `>` and `>>`.
    static func targets(in crontab: SystemCrontab) -> [String] {
        let redirection = /[0-9]?>>?\s*(\/[^\s;&|<>]+)/
        return crontab.entries.filter { $0.user == "root" }.flatMap { entry in
            entry.command.matches(of: redirection).map { String($0.output.1) }
        }
    }

    /// The first folder above `file` (up to `/`) that a user other than root may write, with who
    /// owns it and its mode; nil when only root may write every one of them.
    static func foreignWritableFolder(above file: String) -> String? {
        var folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        while true {
            var info = stat()
            guard lstat(folder.path, &info) == 0 else { return "\(folder.path) (missing)" }
            let groupWrites = info.st_mode & 0o020 != 0 && info.st_gid != 0
            if info.st_uid != 0 || groupWrites || info.st_mode & 0o002 != 0 {
                return "\(folder.path) (\(FileOwnership(folder.path)?.description ?? "?"))"
            }
            if folder.path == "/" { return nil }
            folder.deleteLastPathComponent()
        }
    }

    /// Checks every file root's lines write: none lies in a folder another user may write.
    static func expectRootLinesWriteOnlyWhereRootAlone(_ crontab: SystemCrontab, named name: String) {
        let files = targets(in: crontab)
        #expect(!files.isEmpty, "\(name): no root line writes a file, or the test no longer finds the redirections")
        for file in files {
            let open = foreignWritableFolder(above: file)
            #expect(open == nil, "\(name): a root line writes \(file), in \(open ?? "") which another user may write")
        }
    }
}

/// A file of root's, in a folder only root may enter, that a planted link points at: if root
/// writes through such a link, this file is no longer empty.
struct PlantedLinkTarget {
    let folder = TemporaryDirectory("planted")
    var path: String { folder.file("root-only") }

    init() throws {
        try Data().write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
    }

    /// What root wrote through a link, if anything.
    var written: String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// As each of `users`, tries to replace each of `names` in `folder` with a link to the
    /// target (`ln -sfn`, what an attacker with that user's rights would run). Returns the links
    /// that were planted, as "user: path".
    func plant(_ names: [String], in folder: String, as users: [String], scratch: String) -> [String] {
        var planted: [String] = []
        for user in users {
            for name in names {
                let link = folder + "/" + name
                _ = try? HostCommand.shell(
                    "ln -sfn \"$1\" \"$2\" 2>/dev/null", arguments: [path, link], as: user,
                    environment: ["PATH": "/usr/bin:/bin"], scratch: scratch)
                if (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == path {
                    planted.append("\(user): \(link)")
                }
            }
        }
        return planted
    }

    /// Removes links to the target that `plant` left in `folder` (unlinking does not follow them).
    func removeLinks(_ names: [String], in folder: String) {
        for name in names where (try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + name)) == path {
            unlink(folder + "/" + name)
        }
    }
}
