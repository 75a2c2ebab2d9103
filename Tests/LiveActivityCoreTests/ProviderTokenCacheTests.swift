import TestSupport
import Testing

@testable import LiveActivityCore

/// The provider token's one renewal rule, and the cache that keeps a token across cron runs.
@Suite struct ProviderTokenCacheTests {
    let folder = TemporaryDirectory("tokens")
    let minute: Int64 = 60_000

    @Test func aTokenIsRenewedAtFiftyMinutesOrWhenIssuedMoreThanAMinuteAhead() {
        let token = ProviderToken(jwt: "x", issuedAt: 10_000)
        let issued: Int64 = 10_000_000
        #expect(!token.needsRenewal(atMilliseconds: issued + 50 * minute - 1))
        #expect(token.needsRenewal(atMilliseconds: issued + 50 * minute))
        #expect(!token.needsRenewal(atMilliseconds: issued - minute), "a minute of clock skew is tolerated")
        #expect(token.needsRenewal(atMilliseconds: issued - minute - 1), "the clock went back: renew")
    }

    @Test func aCachedTokenOutlivesItsConnectionUntilTheRuleRenewsIt() throws {
        let path = folder.file("db.sqlite")
        _ = try RegistrationStore(path: path)  // migrated
        let signed = LockedBox(0)
        func cache(_ key: String = "key") throws -> ProviderTokenCache {
            ProviderTokenCache(connection: try SQLiteConnection(path: path), cacheKey: key) { seconds in
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
}
