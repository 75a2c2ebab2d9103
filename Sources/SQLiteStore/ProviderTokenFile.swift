import LiveActivityDomain
import LiveActivityStore

#if canImport(Glibc)
    import Glibc
#endif

/// The provider tokens kept across cron runs on a SQLite host (SPEC 5): credentials, so a file of
/// their own in the sweep's folder (`LIVEACTIVITY_SWEEP_DIR`, `<db>.sweep`), mode 0600 and owned
/// by the sweep's user, never in the database the web user shares (it could delete it and force
/// a new token every run, which APNs answers with 429). A file that is a link, another user's or
/// readable by others is not trusted (a stale or leaked token): it is replaced. One sweep runs at
/// a time on a host (the sweep's lock), which is all the renewal lock this needs.
///
/// One line per cache key (team, key id and key: SPEC 6 "Several apps" signs with several keys in
/// one sweep), each `v1 <cache key> <issued at> <jwt>`: renewing one key's token keeps every
/// other's, so two keys never make each other renew (APNs answers a renewal within 20 minutes
/// with TooManyProviderTokenUpdates). A file of one token, as earlier builds wrote it, is such a
/// file of one line.
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

    /// The first word of each line: its layout, so a later build can change it.
    private static let format = "v1"
    /// The largest file read: some 300 bytes a token, for every key a deployment signs with.
    static let largestFile = 65536
    /// The most tokens kept: the one just written and the most recent others.
    static let mostTokens = 64

    /// One kept token and its cache key (one word: `ProviderToken.cacheKey` is a hex digest).
    private struct Entry {
        let cacheKey: Substring
        let token: ProviderToken
        var line: String { "\(ProviderTokenFile.format) \(cacheKey) \(token.issuedAt) \(token.jwt)\n" }
    }

    func load(cacheKey: String) throws -> ProviderToken? {
        entries().first { $0.cacheKey == cacheKey }?.token
    }

    func renew(cacheKey: String, _ renew: (ProviderToken?) throws -> ProviderToken) throws -> ProviderToken {
        let kept = entries()
        let token = try renew(kept.first { $0.cacheKey == cacheKey }?.token)
        // The new token first, then the others that may still be in use: a token an hour older
        // than this one is past APNs's hour, and no key's is kept forever.
        let oldest = token.issuedAt.subtractingSaturated(3600)
        let others = kept.filter { $0.cacheKey != cacheKey && $0.token.issuedAt >= oldest }.prefix(Self.mostTokens - 1)
        let entry = Entry(cacheKey: Substring(cacheKey), token: token)
        try write(([entry] + others).map(\.line).joined())
        return token
    }

    /// The tokens the file holds, if it is trusted: a regular file of this user's that no other
    /// user may read, not a link. A line this build cannot read is skipped.
    private func entries() -> [Entry] {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid(),
            info.st_mode & 0o077 == 0, info.st_size < Self.largestFile
        else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        guard read(descriptor, &bytes, bytes.count) == bytes.count else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap { line in
            let fields = line.trimmingWhitespace().split(separator: " ")
            guard fields.count == 4, fields[0] == Self.format, let issuedAt = Int64(fields[2]) else { return nil }
            return Entry(cacheKey: fields[1], token: ProviderToken(jwt: String(fields[3]), issuedAt: issuedAt))
        }
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
