import Testing

@testable import LiveActivityWakeClient

/// The waits between attempts: Retry-After honoured, never past the caps.
@Suite struct WakeRetryPolicyTests {
    @Test func retryAfterIsWaitedWhenWithinTheCap() {
        let policy = WakeRetryPolicy(maximumAttempts: 3, maximumWait: 10, firstWait: 1)
        #expect(policy.wait(after: 1, retryAfter: 5) == 5)
        #expect(policy.wait(after: 2, retryAfter: 0) == 0)
        #expect(policy.wait(after: 3, retryAfter: 5) == nil, "three attempts made")
    }

    @Test func aRetryAfterPastTheCapStopsAtOnce() {
        #expect(WakeRetryPolicy.standard.wait(after: 1, retryAfter: 60) == nil)
        #expect(WakeRetryPolicy(maximumWait: 60).wait(after: 1, retryAfter: 60) == 60)
    }

    @Test func withoutRetryAfterTheWaitDoublesUpToTheCap() {
        let policy = WakeRetryPolicy(maximumAttempts: 6, maximumWait: 5, firstWait: 1)
        #expect((1...6).map { policy.wait(after: $0, retryAfter: nil) } == [1, 2, 4, 5, 5, nil])
    }

    @Test func neverMeansOneAttemptAndNonsenseIsBounded() {
        #expect(WakeRetryPolicy.never.wait(after: 1, retryAfter: 0) == nil)
        let odd = WakeRetryPolicy(maximumAttempts: -3, maximumWait: -1, firstWait: -1)
        #expect(odd.maximumAttempts == 1 && odd.maximumWait == 0 && odd.firstWait == 0)
        let huge = WakeRetryPolicy(maximumWait: 1e300, firstWait: .nan)
        #expect(huge.maximumWait == 3600 && huge.firstWait == 0)
    }
}
