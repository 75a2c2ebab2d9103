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
        #expect(try cache("other settings").current(now: t0 + 51 * minute).jwt == "jwt-3", "another key signs its own")
        // PostgreSQL keeps a token per key (hosts or apps with other keys share the database,
        // issue 30 point 12), and so does the in-memory engine; SQLite's one host keeps the last key's.
        let perKey = engine != .sqlite  // SQLite keeps one token in a file; the others one per key
        let back = try cache().current(now: t0 + 52 * minute).jwt
        #expect(back == (perKey ? "jwt-2" : "jwt-4"), "the first key's token, kept or signed again: \(back)")
        let next = perKey ? 4 : 5
        #expect(
            try cache().renew(replacing: try cache().current(now: t0 + 53 * minute), now: t0 + 53 * minute).jwt == "jwt-\(next)")
        // Refused as expired, but another host has put a newer one in its place: that one is used.
        #expect(try cache().renew(replacing: renewed, now: t0 + 54 * minute).jwt == "jwt-\(next)", "nothing signed")
        #expect(signed.get() == next)
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

    @Test func aFolderItCannotWriteIsOneClearError() throws {
        let store = SQLiteEngine(path: "/nonexistent-folder/db.sqlite").providerTokens(
            sweepFolder: "/nonexistent-folder/db.sqlite.sweep")
        let cache = ProviderTokenCache(store: store, cacheKey: "key") { seconds in ProviderToken(jwt: "x", issuedAt: seconds) }
        #expect(throws: ProviderTokenFile.WriteError.self) { try cache.current(now: 1_800_000_000_000) }
    }
}
