#if canImport(Glibc)
    import Glibc
#endif

/// The sweep's own folder beside the database (`<db>.sweep`, mode 0700), holding the files that
/// decide whether pushes go out: the sweep lock and the cached provider token (SPEC 7).
///
/// The database folder is shared with the web user (2770, its group), so a file there can be
/// created, replaced or held by it: a www-data process holding the lock stopped every sweep
/// silently. Inside a folder only the sweep's user may enter, nobody else can; a folder that is
/// a link, owned by another user or open to others is refused, never used or repaired.
public final class SweepFolder: Sendable {
    public let path: String
    /// The folder, opened once without following a link and checked: every file of the sweep is
    /// opened from it (`openat`), never by its path again, so a folder renamed and replaced
    /// under the sweep (its parent is the web user's too) cannot put its files elsewhere.
    public let descriptor: Int32

    /// The folder is unusable: one line for the operator.
    public struct Fault: Error, CustomStringConvertible {
        public let description: String
        /// True when the folder is there but not the sweep's own (a link, another user's, open to
        /// others): someone meddled. False when it cannot be made or read (the database's folder
        /// is missing or read-only), a fault of the place like the database's own.
        public var isForeign = true
    }

    /// The folder for the database at `databasePath`.
    public static func path(forDatabase databasePath: String) -> String { databasePath + ".sweep" }

    /// Files a build before the folder kept beside the database; `removeOldFiles` deletes ours.
    static func oldFiles(forDatabase databasePath: String) -> [String] {
        [databasePath + ".sweep-lock", databasePath + ".provider-token"]
    }

    /// Opens the folder of the database at `databasePath`, creating it 0700 when missing.
    public convenience init(databasePath: String) throws(Fault) {
        try self.init(path: Self.path(forDatabase: databasePath))
    }

    /// Opens the folder at `path`, creating it 0700 when missing: made, opened and its mode set
    /// through descriptors (`mkdirat`, `openat` with `O_NOFOLLOW`, `fchmod`), so a link planted
    /// between two steps is refused, never followed.
    public init(path: String) throws(Fault) {
        self.path = path
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        let slash = trimmed.lastIndex(of: "/")
        let parentPath = slash.map { $0 == trimmed.startIndex ? "/" : String(trimmed[..<$0]) } ?? "."
        let name = slash.map { String(trimmed[trimmed.index(after: $0)...]) } ?? trimmed
        let parent = Glibc.open(parentPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard parent >= 0 else {
            throw Fault(
                description: "cannot create the sweep's folder \(path): \(String(cString: strerror(errno)))", isForeign: false)
        }
        defer { close(parent) }
        let made = mkdirat(parent, name, 0o700) == 0
        guard made || errno == EEXIST else {
            throw Fault(
                description: "cannot create the sweep's folder \(path): \(String(cString: strerror(errno)))", isForeign: false)
        }
        // O_NOFOLLOW: a link planted at the path is refused, never followed to its target.
        let descriptor = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = errno == ELOOP || errno == ENOTDIR ? "not a folder (a link?)" : String(cString: strerror(errno))
            throw Fault(description: "cannot use the sweep's folder \(path): \(reason); remove it and run the sweep again")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw Fault(description: "cannot examine the sweep's folder \(path): \(reason)", isForeign: false)
        }
        guard info.st_uid == geteuid() else {
            close(descriptor)
            throw Fault(
                description:
                    "the sweep's folder \(path) is owned by uid \(info.st_uid), not this sweep's user (uid \(geteuid())): another user made or replaced it; remove it and run the sweep again"
            )
        }
        // In the setgid database folder a new folder inherits the setgid bit: plain 0700.
        if made && fchmod(descriptor, 0o700) == 0 { info.st_mode = (info.st_mode & ~0o7777) | 0o700 }
        guard info.st_mode & 0o077 == 0 else {
            close(descriptor)
            throw Fault(
                description:
                    "the sweep's folder \(path) has mode 0\(String(info.st_mode & 0o7777, radix: 8)), open to other users: chmod 0700 it"
            )
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Opens `name` inside the folder (`openat`, never following a link at `name`).
    public func open(_ name: String, _ flags: Int32, mode: mode_t = 0o600) -> Int32 {
        openat(descriptor, name, flags | O_NOFOLLOW | O_CLOEXEC, mode)
    }

    /// The path of `name` inside the folder.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Deletes the lock and token files an earlier build kept beside the database, when they are
    /// this user's own (a file of the web user's there is left alone; it is read by no one).
    public static func removeOldFiles(forDatabase databasePath: String) {
        for old in oldFiles(forDatabase: databasePath) {
            var info = stat()
            if lstat(old, &info) == 0, info.st_uid == geteuid(), info.st_mode & S_IFMT == S_IFREG { unlink(old) }
        }
    }
}
