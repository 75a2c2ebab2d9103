import Foundation
import LiveActivityDomain

#if canImport(Glibc)
    import Glibc
#endif

/// The APNs provider token (JWT) kept across cron runs, so that each run - a new process - reuses
/// it instead of signing a new one (SPEC section 5). When to renew is the token's own rule
/// (`ProviderToken.needsRenewal`); this type only keeps and signs.
///
/// A token sends pushes for the whole team for up to an hour, so it is a credential: it lives in a
/// file of its own in the sweep's folder (`SweepFolder`), mode 0600 and owned by the sweep's user,
/// never in the database or the folder the web user shares (it could delete it and force a new
/// token every run, which APNs answers with 429). A file that is a link, another user's or
/// readable by others is not trusted (a stale or leaked token): it is replaced.
public final class ProviderTokenCache {
    /// The cache file in the sweep's own folder, where the web user cannot delete or replace it.
    public static func path(in folder: SweepFolder) -> String { folder.file("provider-token") }

    /// The file could not be written (a missing or read-only folder).
    public struct WriteError: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "cannot write the provider token cache \(path): \(reason)" }
    }

    public let path: String
    /// Hash of key id, team id and key: fixing any of them gets a fresh token at once.
    private let cacheKey: String
    /// Signs a new token issued at the given Unix second.
    private let issue: (Int64) throws -> ProviderToken

    public init(path: String, cacheKey: String, issue: @escaping (Int64) throws -> ProviderToken) {
        self.path = path
        self.cacheKey = cacheKey
        self.issue = issue
    }

    /// The cached token unless it needs renewal at `now` (Unix milliseconds), else a new one.
    public func current(now: Int64) throws -> ProviderToken {
        if let cached = cached(), !cached.needsRenewal(atMilliseconds: now) {
            return cached
        }
        return try renew(now: now)
    }

    /// Signs and stores a new token now (after ExpiredProviderToken, or when the cached one aged).
    @discardableResult
    public func renew(now: Int64) throws -> ProviderToken {
        let token = try issue(now / 1000)
        try write("\(Self.format) \(cacheKey) \(token.issuedAt) \(token.jwt)\n")
        return token
    }

    /// The first word of the file: its layout, so a later build can change it.
    private static let format = "v1"

    /// The stored token for this cache key, if the file is ours alone.
    private func cached() -> ProviderToken? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid(),
            info.st_mode & 0o077 == 0, info.st_size < 8192
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        guard read(descriptor, &bytes, bytes.count) == bytes.count else { return nil }
        let fields = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            .split(separator: " ")
        guard fields.count == 4, fields[0] == Self.format, fields[1] == cacheKey, let issuedAt = Int64(fields[2]) else {
            return nil
        }
        return ProviderToken(jwt: String(fields[3]), issuedAt: issuedAt)
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
