import LiveActivityDomain
import Testing

/// The provider token's one renewal rule (SPEC 5), a plain function of the token and the time.
@Suite struct ProviderTokenRenewalTests {
    let minute: Int64 = 60_000

    @Test func aTokenIsRenewedAtFiftyMinutesOrWhenIssuedMoreThanAMinuteAhead() {
        let token = ProviderToken(jwt: "x", issuedAt: 10_000)
        let issued: Int64 = 10_000_000
        #expect(!token.needsRenewal(atMilliseconds: issued + 50 * minute - 1))
        #expect(token.needsRenewal(atMilliseconds: issued + 50 * minute))
        #expect(!token.needsRenewal(atMilliseconds: issued - minute), "a minute of clock skew is tolerated")
        #expect(token.needsRenewal(atMilliseconds: issued - minute - 1), "the clock went back: renew")
    }
}
