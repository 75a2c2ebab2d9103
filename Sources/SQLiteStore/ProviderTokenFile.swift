import LiveActivityDomain
import LiveActivityStore

#if canImport(Glibc)
    import Glibc
#endif

/// The provider token kept across cron runs on a SQLite host (SPEC 5): a credential, so a file of
/// its own in the sweep's folder (`LIVEACTIVITY_SWEEP_DIR`, `<db>.sweep`), mode 0600 and owned
/// by the sweep's user, never in the database the web user shares (it could delete it and force
/// a new token every run, which APNs answers with 429). A file that is a link, another user's or
/// readable by others is not trusted (a stale or leaked token): it is replaced. One sweep runs at
/// a time on a host (the sweep's lock), which is all the renewal lock this needs.
struct ProviderTokenFile: ProviderTokenStore {
    /// The file in the sweep's own folder.
    let path: String

    init(folder: String) {
        path = folder + "/provider-token"
    }

    /// The file could not be written (a missing or read-only folder).
    struct WriteError: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "cannot write the provider token cache \(path): \(reason)" }
    }

    /// The first word of the file: its layout, so a later build can change it.
    private static let format = "v1"

    func load(cacheKey: String) throws -> ProviderToken? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid(),
            info.st_mode & 0o077 == 0, info.st_size < 8192
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        guard read(descriptor, &bytes, bytes.count) == bytes.count else { return nil }
        let fields = String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
            .split(separator: " ")
        guard fields.count == 4, fields[0] == Self.format, fields[1] == cacheKey, let issuedAt = Int64(fields[2]) else {
            return nil
        }
        return ProviderToken(jwt: String(fields[3]), issuedAt: issuedAt)
    }

    func renew(cacheKey: String, _ renew: (ProviderToken?) throws -> ProviderToken) throws -> ProviderToken {
        let token = try renew(try load(cacheKey: cacheKey))
        try write("\(Self.format) \(cacheKey) \(token.issuedAt) \(token.jwt)\n")
        return token
    }

    /// Replaces the file at once: written to a new 0600 file beside it, then renamed over it, so a
    /// reader sees the old token or the new one, and the mode holds whatever the umask.
    private func write(_ text: String) throws {
        let temporary = path + ".new-\(getpid())"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        let bytes = Array(text.utf8)
        let written = fchmod(descriptor, 0o600) == 0 && Glibc.write(descriptor, bytes, bytes.count) == bytes.count
        let reason = String(cString: strerror(errno))
        close(descriptor)
        guard written, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw WriteError(path: path, reason: written ? String(cString: strerror(errno)) : reason)
        }
    }
}
