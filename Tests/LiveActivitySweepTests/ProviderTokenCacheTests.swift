import Foundation
import LiveActivityDomain
import TestSupport
import Testing

@testable import LiveActivitySweep

/// The cache that keeps a provider token across cron runs (its renewal rule: LiveActivityDomainTests).
@Suite struct ProviderTokenCacheTests {
    let folder = TemporaryDirectory("tokens")
    let minute: Int64 = 60_000

    @Test func aCachedTokenOutlivesItsConnectionUntilTheRuleRenewsIt() throws {
        let path = ProviderTokenCache.path(in: try SweepFolder(databasePath: folder.file("db.sqlite")))
        let signed = LockedBox(0)
        func cache(_ key: String = "key") throws -> ProviderTokenCache {
            ProviderTokenCache(path: path, cacheKey: key) { seconds in
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
        #expect(try cache().current(now: t0 + 52 * minute).jwt == "jwt-4", "and replaced the old key's token")
        #expect(try cache().renew(now: t0 + 53 * minute).jwt == "jwt-5")
    }

    /// SPEC 5: a credential, the sweep's user's alone - a file 0600, and a file
    /// another user could read (or a link planted in its place) is not trusted but replaced.
    @Test func theTokenFileIsPrivateAndAnUntrustworthyOneIsReplaced() throws {
        let path = ProviderTokenCache.path(in: try SweepFolder(databasePath: folder.file("db.sqlite")))
        let signed = LockedBox(0)
        let cache = ProviderTokenCache(path: path, cacheKey: "key") { seconds in
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
        let cache = ProviderTokenCache(path: "/nonexistent-folder/db.sqlite.provider-token", cacheKey: "key") { seconds in
            ProviderToken(jwt: "x", issuedAt: seconds)
        }
        #expect(throws: ProviderTokenCache.WriteError.self) { try cache.current(now: 1_800_000_000_000) }
    }
}
