import APNsHTTP2
import LiveActivityCore
import LiveActivitySweep
import TestSupport
import Testing

/// The mass-deletion guard on its own: answers observed, deletions held, one ruling at the end.
@Suite struct MassDeletionGuardTests {
    func row(_ seed: Int, _ environment: APNsEnvironment = .sandbox) -> SweepStore.Due {
        SweepStore.Due(
            token: PushToken(trusted: sampleToken(seed)), activityType: .charging, environment: environment, registeredAt: 7)
    }

    func deletion(_ seed: Int) -> SweepStore.Write { .delete(PushToken(trusted: sampleToken(seed)), registeredAtOrBefore: 7) }

    /// A guard that saw `bad` BadDeviceToken answers and `good` 200s from `environment`.
    func guardAfter(bad: Int, good: Int, _ environment: APNsEnvironment = .sandbox, seed: Int = 0) -> MassDeletionGuard {
        var deletionGuard = MassDeletionGuard()
        for index in 0..<bad {
            deletionGuard.observe(.status(400, "BadDeviceToken"), for: row(seed + index, environment))
            deletionGuard.hold(deletion(seed + index), reason: "BadDeviceToken", environment: environment)
        }
        for index in 0..<good { deletionGuard.observe(.status(200), for: row(seed + 1000 + index, environment)) }
        return deletionGuard
    }

    @Test func aFewBadTokensAmongGoodOnesAreDeleted() {
        let ruling = guardAfter(bad: 3, good: 20).rule(after: nil)
        #expect(ruling.fault == nil)
        #expect(ruling.writes == (0..<3).map(deletion))
        #expect(ruling.tally == SweepTally(removalReasons: ["BadDeviceToken": 3]))
    }

    @Test func fewerThanTenAnswersNeverTripIt() {
        let ruling = guardAfter(bad: 9, good: 0).rule(after: nil)
        #expect(ruling.fault == nil && ruling.writes.count == 9)
    }

    @Test func mostlyBadTokensTripItAndEachBecomesAFailure() throws {
        let ruling = guardAfter(bad: 7, good: 5).rule(after: nil)
        let fault = try #require(ruling.fault)
        #expect(fault.hasPrefix("7 of 12 pushes to sandbox answered BadDeviceToken"))
        #expect(
            ruling.writes
                == (0..<7).map { .failed(PushToken(trusted: sampleToken($0)), reason: "BadDeviceToken", nextPushAt: nil) })
        #expect(ruling.tally == SweepTally(failed: 7, failureReasons: ["BadDeviceToken": 7]))
    }

    @Test func exactlyHalfIsNotMostAndTransportFailuresAreNotAnswers() {
        var deletionGuard = guardAfter(bad: 6, good: 6)
        for seed in 50..<60 { deletionGuard.observe(.failed(.couldNotConnect), for: row(seed)) }
        #expect(deletionGuard.rule(after: nil).fault == nil)
    }

    @Test func environmentsAreJudgedApart() {
        var deletionGuard = guardAfter(bad: 12, good: 0, .sandbox)
        for seed in 100..<102 {
            deletionGuard.observe(.status(400, "BadDeviceToken"), for: row(seed, .production))
            deletionGuard.hold(deletion(seed), reason: "BadDeviceToken", environment: .production)
        }
        for seed in 200..<230 { deletionGuard.observe(.status(200), for: row(seed, .production)) }
        let ruling = deletionGuard.rule(after: nil)
        #expect(ruling.fault?.contains("pushes to sandbox") == true)
        // production is ruled first (by name) and deletes its two; sandbox then trips.
        #expect(ruling.writes.prefix(2) == [deletion(100), deletion(101)])
        #expect(ruling.writes.dropFirst(2).allSatisfy { if case .failed = $0 { true } else { false } })
    }

    @Test func afterAnotherFaultNothingIsDeletedAndThatFaultIsKept() {
        let ruling = guardAfter(bad: 2, good: 20).rule(after: "configuration fault")
        #expect(ruling.fault == "configuration fault")
        #expect(ruling.writes.isEmpty && ruling.tally == SweepTally())
    }

    @Test func deviceTokenNotForTopicIsHeldButNotCountedAsBad() {
        var deletionGuard = MassDeletionGuard()
        for seed in 0..<12 {
            deletionGuard.observe(.status(400, "DeviceTokenNotForTopic"), for: row(seed))
            deletionGuard.hold(deletion(seed), reason: "DeviceTokenNotForTopic", environment: .sandbox)
        }
        let ruling = deletionGuard.rule(after: nil)
        #expect(ruling.fault == nil && ruling.writes.count == 12, "today's rule; SPEC 5 now counts both (issue #9)")
    }
}
