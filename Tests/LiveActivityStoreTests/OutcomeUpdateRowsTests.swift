import LiveActivityDomain
import LiveActivityStore
import TestSupport
import Testing

@testable import SQLiteStore

/// The hour the tests start in.
private let t0: Int64 = 1_800_000_000_000 - 1_800_000_000_000 % 3_600_000

/// Every shape of SQLite's outcome update run against a stored row (`OutcomeUpdateShapesTests`
/// only prepares them): each sets what its shape says and nothing else, as the in-memory engine
/// does with the same row, and only where the row is registered as the sweep read it, unless it
/// is an attempt alone.
@Suite struct OutcomeUpdateRowsTests {
    /// Every shape that sets something (an attempt alone that changes nothing is never run).
    static let shapes = SQLiteStoreConnection.UpdateShape.all.filter { !$0.setsNothing }

    @Test func everyShapeSetsWhatItSaysOnAStoredRowAsTheMemoryEngineDoes() throws {
        try compareEngines(reRegistered: false)
    }

    @Test func aRowRegisteredAgainIsSkippedUnlessItsShapeIsAnAttemptAlone() throws {
        try compareEngines(reRegistered: true)
    }

    /// Applies each shape's row to a target of its own on SQLite and in memory; checks each
    /// result and row against what the shape says, and the two engines against each other.
    private func compareEngines(reRegistered: Bool) throws {
        let sqlite = try ShapedRows(.sqlite, reRegistered: reRegistered)
        let memory = try ShapedRows(.memory, reRegistered: reRegistered)
        for (index, shape) in Self.shapes.enumerated() {
            let row = Self.row(taking: shape, token: ShapedRows.token(index))
            let expected = Self.expected(row, shape: shape, on: sqlite.before[index], reRegistered: reRegistered)
            #expect(sqlite.results[index] == expected.result, "\(shape)")
            #expect(sqlite.after[index] == expected.state, "\(shape)")
            #expect(sqlite.before[index] == memory.before[index], "\(shape): prepared alike")
            #expect(sqlite.results[index] == memory.results[index], "\(shape)")
            #expect(sqlite.after[index] == memory.after[index], "\(shape)")
        }
    }

    // MARK: - A row of each shape

    /// A row that takes exactly `shape`, for `token`'s wake target as the sweep read it at `t0`.
    static func row(taking shape: SQLiteStoreConnection.UpdateShape, token: PushToken) -> OutcomeRow {
        let change: OutcomeRow.Change
        let setting: SQLiteStoreConnection.Setting
        switch shape.change {
        case .delivered:
            change = .delivered(at: t0 + 7000, nextPushAt: t0 + 900_000)
            setting = .delivered(at: t0 + 7000, next: t0 + 900_000)
        case .kept:
            // Every other one keeps the stored reason (a withheld wake records none).
            let kept = OutcomeRow.Change.Kept(
                failuresAdded: 2, guardHoldsAdded: 1, reason: shape.number.isMultiple(of: 2) ? "Shaped" : nil,
                nextPushAt: t0 + 800_000)
            change = .kept(kept)
            setting = .kept(kept)
        case .attemptOnly:
            change = .attemptOnly
            setting = .attemptOnly
        }
        let attempts: OutcomeRow.Attempts =
            switch shape.attempts {
            case .unchanged: .unchanged
            case .prepend: .prepend(attempt(token, answeredAt: t0 + 7000))
            case .replace: .replace(replaced(token), unchangedAcks: nil)
            case .replaceWithUnchangedAcks: .replace(replaced(token), unchangedAcks: 5)
            }
        let row = OutcomeRow(
            key: .wake(token), selectedRegisteredAt: t0, change: change, attempts: attempts,
            clearsWaitingAck: shape.clearsWaitingAck)
        precondition(SQLiteStoreConnection.UpdateShape(of: row, setting: setting).number == shape.number)
        return row
    }

    /// The attempts a replacing row writes, newest first.
    static func replaced(_ token: PushToken) -> [PushAttempt] {
        [attempt(token, answeredAt: t0 + 7000), attempt(token, answeredAt: t0 + 2000)]
    }

    static func attempt(_ token: PushToken, answeredAt: Int64) -> PushAttempt {
        PushAttempt(token: token, sentAt: answeredAt - 30, answeredAt: answeredAt, status: 200, reason: nil, apnsID: "shaped")
    }

    /// What `row` leaves of `before`, written out from what its shape says it sets; a row
    /// registered again since it was read is left alone unless it is an attempt alone.
    static func expected(
        _ row: OutcomeRow, shape: SQLiteStoreConnection.UpdateShape, on before: TargetState, reRegistered: Bool
    ) -> (result: OutcomeRow.Result, state: TargetState) {
        if reRegistered && shape.change != .attemptOnly { return (.skipped, before) }
        var after = before
        switch row.change {
        case .delivered(let at, let next):
            after.target.lastPushAt = at
            after.target.nextPushAt = next
            after.target.pushCount += 1
            after.target.consecutiveFailures = 0
            after.target.lastError = nil
        case .kept(let kept):
            after.target.consecutiveFailures += Int64(kept.failuresAdded)
            after.target.lastError = kept.reason ?? before.target.lastError
            after.target.nextPushAt = kept.nextPushAt
            after.guardHolds += kept.guardHoldsAdded
        default: break
        }
        switch row.attempts {
        case .unchanged: break
        case .prepend(let attempt): after.target.attempts = Array(([attempt] + before.target.attempts).prefix(PushAttempt.kept))
        case .replace(let all, let unchangedAcks):
            after.target.attempts = all
            if let unchangedAcks { after.target.cadence.unchangedAcks = unchangedAcks }
        }
        if row.clearsWaitingAck { after.waiting = nil }
        return (.written, after)
    }
}

/// A wake target as the store's API shows it: the registration's target with its attempts, its
/// guard holds (as the due read gives them) and the ack waiting on it.
struct TargetState: Equatable {
    var registeredAt: Int64
    var target: PushTarget
    var guardHolds: Int
    var waiting: Waiting?

    struct Waiting: Equatable {
        var at: Int64
        var changed: Bool?
    }
}

/// One database of `engine` with a wake target per shape, each with every column the update
/// may set away from its default (wake-ups, failures, guard holds, a reason, attempts, unchanged
/// acks, an ack waiting), then each shape's row written to its target: each target before and
/// after, and each row's result.
private struct ShapedRows {
    var before: [TargetState] = []
    var after: [TargetState] = []
    var results: [OutcomeRow.Result] = []

    static func token(_ index: Int) -> PushToken { PushToken(trusted: sampleToken(index + 1)) }

    init(_ engine: TestEngine, reRegistered: Bool) throws {
        let database = try TestDatabase(engine, label: "outcome-rows")
        let policy = IntervalPolicy(typeSeconds: [.charging: 300], maximumSeconds: 3600)
        let tokens = OutcomeUpdateRowsTests.shapes.indices.map(Self.token)
        for token in tokens { try database.register(token, type: .charging, now: t0) }
        // A 200 (one wake-up, one attempt), and an ack that matches it saying nothing changed.
        try database.apply(
            tokens.map { .delivered(.wake($0), selectedRegisteredAt: t0, at: t0 + 1000, nextPushAt: t0 + 3_600_000) },
            answered: tokens.map {
                AnsweredPush(
                    key: .wake($0), attempt: OutcomeUpdateRowsTests.attempt($0, answeredAt: t0 + 1000),
                    activityType: .charging, environment: .production, previousDeliveryAt: nil)
            }, policy: policy)
        for token in tokens {
            #expect(try database.acknowledge(token, now: t0 + 4000, policy: policy, report: .init(changed: false)) == .matched)
        }
        // Held by the guard (a failure, a hold, a reason), due again before the next ack: that one waits.
        try database.apply(
            tokens.map { .heldByGuard(.wake($0), selectedRegisteredAt: t0, reason: "BadDeviceToken", nextPushAt: t0 + 5000) },
            policy: policy)
        for token in tokens {
            #expect(try database.acknowledge(token, now: t0 + 6000, policy: policy, report: .init(changed: true)) == nil)
        }
        // Registered again after the sweep read it at t0.
        if reRegistered { for token in tokens { try database.register(token, type: .charging, now: t0 + 60_000) } }
        before = try tokens.map { try Self.state(of: $0, in: database) }
        let rows = zip(OutcomeUpdateRowsTests.shapes, tokens).map { OutcomeUpdateRowsTests.row(taking: $0, token: $1) }
        results = try database.reading { connection in try connection.transaction { try connection.write(rows).results } }
        after = try tokens.map { try Self.state(of: $0, in: database) }
    }

    /// `token`'s wake target as the store's API reads it back.
    static func state(of token: PushToken, in database: TestDatabase) throws -> TargetState {
        let registration = try #require(try database.registration(token, attempts: true))
        return try database.reading { connection in
            let due = try connection.claimDue(
                atOrBefore: .max, environments: APNsEnvironment.allCases, after: nil, limit: 1000
            ).compactMap { try? $0.target.get() }
            let guardHolds = try #require(due.first { $0.key == .wake(token) }).guardHolds
            let waiting = try connection.waitingAcks(among: [RegistrationKey(app: .defaultApp, token: token)]).first
            return TargetState(
                registeredAt: registration.registeredAt, target: registration.wake, guardHolds: guardHolds,
                waiting: waiting.map { TargetState.Waiting(at: $0.at, changed: $0.changed) })
        }
    }
}
