import Foundation
import LiveActivityDomain
import LiveActivityStore
import TestSupport
import Testing

@testable import LiveActivitySweep
@testable import SQLiteStore

/// The cache that keeps a provider token across cron runs (its renewal rule: LiveActivityDomainTests).
@Suite struct ProviderTokenCacheTests {
    let folder = TemporaryDirectory("tokens")
    let minute: Int64 = 60_000

    /// The SQLite engine's store: a file in the sweep's folder.
    func fileStore() throws -> any ProviderTokenStore {
        SQLiteEngine(path: folder.file("db.sqlite")).providerTokens(sweepFolder: try SweepFolder(path: folder.file("sweep")).path)
    }

    var path: String { folder.file("sweep/provider-token") }

    @Test(arguments: TestEngine.every)
    func aCachedTokenOutlivesItsConnectionUntilTheRuleRenewsIt(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "tokens")
        let store = database.engine.providerTokens(sweepFolder: try SweepFolder(path: database.sweepFolder).path)
        let signed = LockedBox(0)
        func cache(_ key: String = "key") throws -> ProviderTokenCache {
            ProviderTokenCache(store: store, cacheKey: key) { seconds in
                let count = signed.update {
                    $0 += 1
                    return $0
                }
                return ProviderToken(jwt: "jwt-\(count)", issuedAt: seconds)
            }
        }
        let t0: Int64 = 1_800_000_000_000
        let first = try cache().current(now: t0)
        #expect(first == ProviderToken(jwt: "jwt-1", issuedAt: t0 / 1000))
        #expect(try cache().current(now: t0 + 49 * minute) == first, "a new process reuses it")
        let renewed = try cache().current(now: t0 + 50 * minute)
        #expect(renewed.jwt == "jwt-2")
        #expect(try cache("other-settings").current(now: t0 + 51 * minute).jwt == "jwt-3", "another key signs its own")
        // Every engine keeps a token per key: apps with other keys (SPEC 6 "Several apps") and
        // hosts share one store, and a key's renewal must never cost another key its token.
        #expect(try cache().current(now: t0 + 52 * minute).jwt == "jwt-2", "the first key's token, kept")
        #expect(
            try cache().renew(replacing: try cache().current(now: t0 + 53 * minute), now: t0 + 53 * minute).jwt == "jwt-4")
        // Refused as expired, but another host has put a newer one in its place: that one is used.
        #expect(try cache().renew(replacing: renewed, now: t0 + 54 * minute).jwt == "jwt-4", "nothing signed")
        #expect(try cache("other-settings").current(now: t0 + 54 * minute).jwt == "jwt-3", "the other key's, kept")
        #expect(signed.get() == 4)
    }

    /// SPEC 5: a credential, the sweep's user's alone - a file 0600, and a file
    /// another user could read (or a link planted in its place) is not trusted but replaced.
    @Test func theTokenFileIsPrivateAndAnUntrustworthyOneIsReplaced() throws {
        let signed = LockedBox(0)
        let cache = ProviderTokenCache(store: try fileStore(), cacheKey: "key") { seconds in
            let count = signed.update {
                $0 += 1
                return $0
            }
            return ProviderToken(jwt: "jwt-\(count)", issuedAt: seconds)
        }
        let t0: Int64 = 1_800_000_000_000
        #expect(try cache.current(now: t0).jwt == "jwt-1")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        chmod(path, 0o640)
        #expect(try cache.current(now: t0 + minute).jwt == "jwt-2", "a group-readable token was trusted")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)

        let elsewhere = folder.file("planted")
        try "v1 key \(t0 / 1000) forged\n".write(toFile: elsewhere, atomically: true, encoding: .utf8)
        chmod(elsewhere, 0o600)
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: elsewhere)
        #expect(try cache.current(now: t0 + 2 * minute).jwt == "jwt-3", "a token behind a symbolic link was trusted")
        #expect(try String(contentsOfFile: elsewhere, encoding: .utf8).contains("forged"), "the link's target was written")
    }

    /// Two keys signing in one sweep (SPEC 6 "Several apps") each keep their token in the one
    /// file, side by side: renewing one leaves the other's as it was.
    @Test func theTokenFileKeepsOneTokenPerKeySideBySide() throws {
        let store = try fileStore()
        let t0: Int64 = 1_800_000_000
        let first = try store.renew(cacheKey: "first") { _ in ProviderToken(jwt: "a.b.one", issuedAt: t0) }
        let second = try store.renew(cacheKey: "second") { _ in ProviderToken(jwt: "a.b.two", issuedAt: t0 + 60) }
        #expect(try store.load(cacheKey: "first") == first && store.load(cacheKey: "second") == second)
        let renewed = try store.renew(cacheKey: "first") { kept in
            #expect(kept == first)
            return ProviderToken(jwt: "a.b.three", issuedAt: t0 + 3000)
        }
        #expect(try store.load(cacheKey: "first") == renewed && store.load(cacheKey: "second") == second)
        #expect(try store.load(cacheKey: "third") == nil)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines == ["v1 first \(t0 + 3000) a.b.three", "v1 second \(t0 + 60) a.b.two"])
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        // A key's token an hour older than the one written is past APNs's hour: not kept.
        _ = try store.renew(cacheKey: "first") { _ in ProviderToken(jwt: "a.b.four", issuedAt: t0 + 3661) }
        #expect(try store.load(cacheKey: "second") == nil && store.load(cacheKey: "first")?.jwt == "a.b.four")
    }

    /// The file an earlier build wrote (one token, one line) is read as it is, and its token kept
    /// when another key's is written beside it.
    @Test func aTokenFileOfOneTokenIsStillRead() throws {
        let store = try fileStore()
        try "v1 old-key 1800000000 a.b.old\n".write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o600)
        #expect(try store.load(cacheKey: "old-key") == ProviderToken(jwt: "a.b.old", issuedAt: 1_800_000_000))
        #expect(try store.load(cacheKey: "new-key") == nil)
        _ = try store.renew(cacheKey: "new-key") { _ in ProviderToken(jwt: "a.b.new", issuedAt: 1_800_000_100) }
        #expect(try store.load(cacheKey: "old-key") == ProviderToken(jwt: "a.b.old", issuedAt: 1_800_000_000))
        #expect(try store.load(cacheKey: "new-key")?.jwt == "a.b.new")
    }

    @Test func aFolderItCannotWriteIsOneClearError() throws {
        let store = SQLiteEngine(path: "/nonexistent-folder/db.sqlite").providerTokens(
            sweepFolder: "/nonexistent-folder/db.sqlite.sweep")
        let cache = ProviderTokenCache(store: store, cacheKey: "key") { seconds in ProviderToken(jwt: "x", issuedAt: seconds) }
        #expect(throws: ProviderTokenFile.WriteError.self) { try cache.current(now: 1_800_000_000_000) }
    }
}
