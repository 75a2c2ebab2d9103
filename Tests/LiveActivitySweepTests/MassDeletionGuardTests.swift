import APNsHTTP2
import LiveActivityDomain
import LiveActivitySweep
import TestSupport
import Testing

/// The mass-deletion guard on its own (SPEC 5): final answers observed, deletions held, one
/// ruling at the end, judged per environment on proven tokens.
@Suite struct MassDeletionGuardTests {
    let rules = OutcomeRules(policy: IntervalPolicy(typeSeconds: [.charging: 300, .debug: 60]))
    let now: Int64 = 1_800_000_000_000

    func row(_ seed: Int, _ environment: APNsEnvironment = .sandbox, proven: Bool = false, holds: Int = 0) -> DueTarget {
        DueTarget(
            wake: PushToken(trusted: sampleToken(seed)), activityType: .charging, environment: environment, registeredAt: 7,
            proven: proven, failures: holds, guardHolds: holds)
    }

    func deletion(_ seed: Int) -> OutcomeWrite { .delete(.wake(PushToken(trusted: sampleToken(seed))), registeredAtOrBefore: 7) }

    /// The write of a row the guard holds in an environment that never delivered, after `failures` before.
    func backingOff(_ seed: Int, failures: Int) -> OutcomeWrite {
        let due = row(seed)
        return .heldByGuard(
            .wake(
                due.token), selectedRegisteredAt: due.registeredAt, reason: "BadDeviceToken",
            nextPushAt: now + 300_000 << Int64(failures))
    }

    func held(_ seed: Int, _ reason: String = "BadDeviceToken") -> OutcomeWrite {
        .held(.wake(PushToken(trusted: sampleToken(seed))), selectedRegisteredAt: 7, reason: reason, nextPushAt: now + 300_000)
    }

    /// A guard that saw `rejected` BadDeviceToken answers and `delivered` 200s from `environment`.
    func guardAfter(
        rejected: Int, delivered: Int, _ environment: APNsEnvironment = .sandbox, provenRejected: Bool = false,
        provenDelivered: Bool = true, seed: Int = 0, reason: String = "BadDeviceToken",
        everDelivered: Set<PushScope> = [], holds: (Int) -> Int = { _ in 0 }
    ) -> MassDeletionGuard {
        var deletionGuard = MassDeletionGuard(everDelivered: everDelivered)
        for index in 0..<rejected {
            let row = row(seed + index, environment, proven: provenRejected, holds: holds(index))
            deletionGuard.observe(.status(400, reason), for: row)
            deletionGuard.hold(deletion(seed + index), reason: reason, row: row)
        }
        for index in 0..<delivered {
            deletionGuard.observe(.status(200), for: row(seed + 1000 + index, environment, proven: provenDelivered))
        }
        return deletionGuard
    }

    func rule(_ deletionGuard: MassDeletionGuard, faults: [FaultScope: SweepFault] = [:]) -> MassDeletionGuard.Ruling {
        deletionGuard.rule(faults: faults, rules: rules, now: now)
    }

    @Test func junkAmongProvenTokensIsDeleted() {
        let ruling = rule(guardAfter(rejected: 1000, delivered: 50))
        #expect(ruling.faults.isEmpty)
        #expect(ruling.writes == (0..<1000).map(deletion))
        #expect(ruling.tallies == [AppKind(.wake): SweepTally(removalReasons: ["BadDeviceToken": 1000])])
    }

    @Test func mostProvenTokensRejectedTripsIt() throws {
        let ruling = rule(guardAfter(rejected: 7, delivered: 5, provenRejected: true))
        let fault = try #require(ruling.faults.first)
        #expect(fault.kind == .guarded && fault.environment == .sandbox && fault.reason == "BadDeviceToken" && fault.pushes == 7)
        #expect(fault.advice.hasPrefix("7 of 12 proven tokens were rejected"))
        #expect(ruling.writes == (0..<7).map { held($0) }, "nothing deleted; each waits one interval")
        #expect(ruling.tallies == [AppKind(.wake): SweepTally(held: 7)])
    }

    @Test func exactlyHalfOfTheProvenIsNotMost() {
        #expect(rule(guardAfter(rejected: 6, delivered: 6, provenRejected: true)).faults.isEmpty)
    }

    @Test func fewerThanTenProvenAnswersNeverTripTheFirstRule() {
        let ruling = rule(guardAfter(rejected: 9, delivered: 0, provenRejected: true))
        #expect(ruling.faults.isEmpty && ruling.writes == (0..<9).map(deletion))
    }

    @Test func aFreshDeploymentPointedAtTheWrongPlaceDeletesNothing() throws {
        // Nothing proven yet, no 200 at all, and ten or more rejected.
        let ruling = rule(guardAfter(rejected: 10, delivered: 0))
        let fault = try #require(ruling.faults.first)
        #expect(fault.advice.contains("no push got a 200"))
        // Each backs off as a held row (SPEC 5, issue 26 point 3): one more failure, and
        // interval x 2^(failures-1) - one interval at its first hold, counted as held.
        #expect(ruling.writes == (0..<10).map { backingOff($0, failures: 0) })
        #expect(ruling.tallies == [AppKind(.wake): SweepTally(held: 10)])
        // One 200 anywhere in the environment: the rejected ones are junk after all.
        #expect(rule(guardAfter(rejected: 10, delivered: 1, provenDelivered: false)).faults.isEmpty)
    }

    /// Issue 30 point 1: junk the guard holds again and again would fill the unproven cap; a row
    /// never proven is deleted at its third hold, while the others back off as held rows.
    @Test func aRowNeverProvenIsDeletedAtItsThirdHold() throws {
        let ruling = rule(guardAfter(rejected: 12, delivered: 0, holds: { $0 < 4 ? 2 : 1 }))
        #expect(try #require(ruling.faults.first).pushes == 12, "the fault counts every push it touched")
        #expect(Array(ruling.writes.prefix(4)) == (0..<4).map(deletion))
        #expect(Array(ruling.writes.dropFirst(4)) == (4..<12).map { backingOff($0, failures: 1) })
        #expect(ruling.tallies == [AppKind(.wake): SweepTally(held: 8, removalReasons: ["BadDeviceToken": 4])])
        // A proven row the guard holds (most proven tokens rejected) is never deleted for it.
        let proven = rule(guardAfter(rejected: 12, delivered: 0, provenRejected: true, holds: { _ in 5 }))
        #expect(!proven.writes.contains { if case .delete = $0 { true } else { false } })
    }

    /// Issue 48 point 1: junk asking for a long interval backs off from its type's interval, so
    /// it lives three of the type's intervals at most, never three hours.
    @Test func heldJunkBacksOffFromItsTypesIntervalNotTheOneItAskedFor() throws {
        var deletionGuard = MassDeletionGuard()
        for seed in 0..<10 {
            var row = row(seed, holds: 1)
            row.requestedInterval = 3600
            deletionGuard.observe(.status(400, "BadDeviceToken"), for: row)
            deletionGuard.hold(deletion(seed), reason: "BadDeviceToken", row: row)
        }
        let ruling = rule(deletionGuard)
        #expect(ruling.writes == (0..<10).map { backingOff($0, failures: 1) }, "300 s x 2, not 3600 s x 2")
    }

    /// Issue 48 point 10: the fault's line says what its holds did - those deleted at their
    /// third hold are counted as deleted, not as kept.
    @Test func theGuardsLineCountsTheRowsItDeletedAtTheirThirdHold() throws {
        let all = try #require(rule(guardAfter(rejected: 30, delivered: 0, holds: { _ in 2 })).faults.first)
        #expect(all.removed == 30 && all.pushes == 30)
        #expect(all.line.hasSuffix("0 pushes back off; 30 registrations never answered 200 and held 3 times were deleted"))
        #expect(!all.line.contains("no registration was removed"))
        let some = try #require(rule(guardAfter(rejected: 12, delivered: 0, holds: { $0 < 4 ? 2 : 0 })).faults.first)
        #expect(some.line.hasSuffix("8 pushes back off; 4 registrations never answered 200 and held 3 times were deleted"))
        let none = try #require(rule(guardAfter(rejected: 10, delivered: 0)).faults.first)
        #expect(none.line.hasSuffix("10 pushes back off; no registration was removed for it"))
        // Most proven tokens rejected: each waits one interval, none deleted.
        let proven = try #require(rule(guardAfter(rejected: 7, delivered: 5, provenRejected: true)).faults.first)
        #expect(proven.line.hasSuffix("7 pushes wait one interval; no registration was removed for it"))
    }

    @Test func junkInAnEnvironmentThatOnceDeliveredIsDeletedWithNo200ThisSweep() {
        // A quiet sandbox: its one real device is not due, fifty junk tokens are.
        let ruling = rule(guardAfter(rejected: 50, delivered: 0, everDelivered: [.sandbox]))
        #expect(ruling.faults.isEmpty)
        #expect(ruling.writes == (0..<50).map(deletion))
        #expect(ruling.tallies == [AppKind(.wake): SweepTally(removalReasons: ["BadDeviceToken": 50])])
        // Production's history says nothing about sandbox.
        #expect(rule(guardAfter(rejected: 50, delivered: 0, everDelivered: [.production])).faults.map(\.kind) == [.guarded])
    }

    @Test func theHistoryLeavesTheProvenRuleAsItIs() throws {
        let ruling = rule(guardAfter(rejected: 12, delivered: 0, provenRejected: true, everDelivered: [.sandbox]))
        #expect(try #require(ruling.faults.first).advice.hasPrefix("12 of 12 proven tokens were rejected"))
        #expect(ruling.writes == (0..<12).map { held($0) })
    }

    @Test func deviceTokenNotForTopicCountsLikeBadDeviceToken() throws {
        let ruling = rule(guardAfter(rejected: 12, delivered: 3, provenRejected: true, reason: "DeviceTokenNotForTopic"))
        #expect(try #require(ruling.faults.first).reason == "DeviceTokenNotForTopic")
        #expect(ruling.writes == (0..<12).map { held($0, "DeviceTokenNotForTopic") })
    }

    @Test func transportFailuresAreNotAnswers() {
        var deletionGuard = guardAfter(rejected: 6, delivered: 6, provenRejected: true)
        for seed in 50..<60 { deletionGuard.observe(.failed(.receiveError), for: row(seed, proven: true)) }
        #expect(rule(deletionGuard).faults.isEmpty)
    }

    @Test func environmentsAreJudgedApart() {
        var deletionGuard = guardAfter(rejected: 12, delivered: 0, .sandbox, provenRejected: true)
        for seed in 100..<102 {
            let row = row(seed, .production, proven: true)
            deletionGuard.observe(.status(400, "BadDeviceToken"), for: row)
            deletionGuard.hold(deletion(seed), reason: "BadDeviceToken", row: row)
        }
        for seed in 200..<230 { deletionGuard.observe(.status(200), for: row(seed, .production, proven: true)) }
        let ruling = rule(deletionGuard)
        #expect(ruling.faults.map(\.environment) == [.sandbox])
        // production is ruled first (by name) and deletes its two; sandbox then trips.
        #expect(ruling.writes.prefix(2) == [deletion(100), deletion(101)])
        #expect(ruling.writes.dropFirst(2) == ArraySlice((0..<12).map { held($0) }))
    }

    @Test func afterAnotherFaultOfTheEnvironmentNothingIsDeletedThere() {
        let other = SweepFault(environment: .sandbox, kind: .configuration, reason: "BadEnvironmentKeyInToken", advice: "")
        let ruling = rule(guardAfter(rejected: 2, delivered: 20), faults: [.sandbox: other])
        #expect(ruling.faults.isEmpty && ruling.touched == [.sandbox: 2])
        #expect(
            ruling.writes
                == (0..<2).map {
                    .held(
                        .wake(
                            PushToken(trusted: sampleToken($0))), selectedRegisteredAt: 7, reason: "BadEnvironmentKeyInToken",
                        nextPushAt: now + 300_000)
                })
        // An unreachable host says nothing about the answers that did arrive.
        let down = SweepFault(environment: .sandbox, kind: .unreachable, reason: "CURLE_COULDNT_CONNECT", advice: "")
        #expect(rule(guardAfter(rejected: 2, delivered: 20), faults: [.sandbox: down]).writes == [deletion(0), deletion(1)])
    }
}
