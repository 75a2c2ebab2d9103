import LiveActivityDomain

/// Each value the store reads back, decoded once from any engine's row (`StoredRow`), in the
/// column order of `TargetColumns`, every value checked through `StoredValue`.
extension DueTarget {
    /// A due target from `TargetColumns.due`.
    public init(stored row: some StoredRow) throws(StoredValueError) {
        let lastPushAt = try StoredValue.optionalTime(row.optionalInt(9), column: "last_push_at")
        self.init(
            key: try TargetKey(stored: row, appColumn: TargetColumns.dueApp),
            token: try StoredValue.token(row.text(2)),
            activityType: try StoredValue.activityType(row.text(3)),
            environment: try StoredValue.environment(row.text(4)),
            registeredAt: try StoredValue.time(row.int(5), column: "registered_at"), proven: lastPushAt != nil,
            failures: Int(try StoredValue.count(row.int(6), in: StoredValue.failures, column: "consecutive_failures")),
            nextPushAt: try StoredValue.time(row.int(7), column: "next_push_at"),
            requestedInterval: try StoredValue.requestedInterval(row.optionalInt(8)), lastPushAt: lastPushAt,
            guardHolds: Int(try StoredValue.count(row.int(10), in: StoredValue.failures, column: "guard_holds")),
            cadence: CadenceState(stored: row, from: TargetColumns.dueCadence))
    }
}

extension DuePosition {
    /// Where a row of `TargetColumns.due` stands in the due order, read without checks (a row
    /// whose values this build cannot use still moves the page on): columns 0, 1, 7 and the app's.
    public init(stored row: some StoredRow) {
        self.init(
            nextPushAt: row.int(7),
            key: TargetKey(
                registration: PushToken(trusted: row.text(0) ?? ""), kind: PushKind(name: row.text(1) ?? "") ?? .wake,
                app: AppName(trusted: row.text(TargetColumns.dueApp) ?? "")))
    }
}

extension TargetKey {
    /// The key of a row whose first two columns are `registration_token, push_kind`, and whose
    /// `appColumn` is `app`.
    public init(stored row: some StoredRow, appColumn: Int32) throws(StoredValueError) {
        self.init(
            registration: try StoredValue.token(row.text(0), column: "registration_token"),
            kind: try StoredValue.kind(row.text(1)), app: try StoredValue.app(row.text(appColumn)))
    }
}

extension RegistrationFacts {
    /// The registration's facts of a row of `TargetColumns.stored`.
    public init(stored row: some StoredRow) throws(StoredValueError) {
        self.init(
            activityType: try StoredValue.activityType(row.text(3)), environment: try StoredValue.environment(row.text(4)),
            registeredAt: try StoredValue.time(row.int(5), column: "registered_at"),
            expiresAt: try StoredValue.time(row.int(6), column: "expires_at"))
    }
}

extension PushTarget {
    /// A target of a row of `TargetColumns.stored`, with its attempts when `attempts` (the
    /// engine appended them as column `TargetColumns.storedAttempts`).
    public init(stored row: some StoredRow, attempts: Bool) throws(StoredValueError) {
        let token = try StoredValue.token(row.text(2))
        self.init(
            kind: try StoredValue.kind(row.text(1)), token: token,
            requestedInterval: try StoredValue.requestedInterval(row.optionalInt(7)),
            nextPushAt: try StoredValue.time(row.int(8), column: "next_push_at"),
            lastPushAt: try StoredValue.optionalTime(row.optionalInt(9), column: "last_push_at"),
            pushCount: try StoredValue.count(row.int(10), in: StoredValue.wakeups, column: "push_count"),
            consecutiveFailures: try StoredValue.count(row.int(11), in: StoredValue.failures, column: "consecutive_failures"),
            lastError: row.text(12), cadence: CadenceState(stored: row, from: TargetColumns.storedCadence),
            attempts: attempts ? StoredValue.attempts(row.bytes(TargetColumns.storedAttempts), token: token) : [])
    }
}

/// One row of `TargetColumns.stored`, decoded as it is read (a SQLite row is gone at the next
/// step): the registration it belongs to, the registration's facts and the target.
public struct StoredTargetRow: Sendable, Equatable {
    public var registration: RegistrationKey
    public var facts: RegistrationFacts
    public var target: PushTarget

    public init(stored row: some StoredRow, attempts: Bool) throws(StoredValueError) {
        registration = RegistrationKey(
            app: try StoredValue.app(row.text(TargetColumns.storedApp)),
            token: try StoredValue.token(row.text(0), column: "registration_token"))
        facts = try RegistrationFacts(stored: row)
        target = try PushTarget(stored: row, attempts: attempts)
    }
}

extension Registration {
    /// A registration from the rows of its targets, nil for none: its facts from its wake
    /// target's row, its other targets in the order kinds are listed. Rows without a wake target
    /// are not a registration this build can use.
    public init?(stored rows: [StoredTargetRow]) throws(StoredValueError) {
        guard let first = rows.first else { return nil }
        guard let wake = rows.first(where: { $0.target.kind == .wake }) else {
            throw StoredValueError(column: "push_targets.push_kind", value: "no wake target of \(first.registration)")
        }
        let order = PushKind.all
        let others = rows.map(\.target).filter { $0.kind != .wake }.sorted {
            (order.firstIndex(of: $0.kind) ?? .max) < (order.firstIndex(of: $1.kind) ?? .max)
        }
        self.init(
            token: wake.registration.token, activityType: wake.facts.activityType, environment: wake.facts.environment,
            registeredAt: wake.facts.registeredAt, expiresAt: wake.facts.expiresAt, wake: wake.target, others: others,
            app: wake.registration.app)
    }
}

/// The columns `AckSubject(stored:token:)` reads.
public enum AckColumns {
    public static let subject =
        "activity_type, environment, requested_interval, next_push_at, attempts, waiting_ack_at, last_push_at, registered_at, "
        + CadenceColumns.list
}

extension AckSubject {
    /// What an ack needs of the wake target of `token`'s registration, from `AckColumns.subject`
    /// (an engine selects its attempts as one bytes column).
    public init(stored row: some StoredRow, token: PushToken) throws(StoredValueError) {
        self.init(
            activityType: try StoredValue.activityType(row.text(0)), environment: try StoredValue.environment(row.text(1)),
            requestedInterval: try StoredValue.requestedInterval(row.optionalInt(2)),
            nextPushAt: try StoredValue.time(row.int(3), column: "next_push_at"),
            attempts: StoredValue.attempts(row.bytes(4), token: token),
            waitingAckAt: try StoredValue.optionalTime(row.optionalInt(5), column: "waiting_ack_at"),
            lastPushAt: try StoredValue.optionalTime(row.optionalInt(6), column: "last_push_at"),
            registeredAt: try StoredValue.time(row.int(7), column: "registered_at"),
            cadence: CadenceState(stored: row, from: 8))
    }
}

extension WaitingAck {
    /// An ack waiting on a wake target, from `WaitingAck.columns` then the attempts.
    public init(stored row: some StoredRow) throws(StoredValueError) {
        let token = try StoredValue.token(row.text(0), column: "registration_token")
        self.init(
            key: RegistrationKey(app: try StoredValue.app(row.text(1)), token: token),
            at: try StoredValue.time(row.int(2), column: "waiting_ack_at"),
            activityType: try StoredValue.activityType(row.text(3)), environment: try StoredValue.environment(row.text(4)),
            requestedInterval: try StoredValue.requestedInterval(row.optionalInt(5)),
            changed: row.optionalInt(6).map { $0 != 0 }, cadence: CadenceState(stored: row, from: 7),
            attempts: StoredValue.attempts(row.bytes(7 + CadenceColumns.count), token: token))
    }

    /// The columns it reads, in order (the attempts as the engine selects them, last).
    public static let columns =
        "registration_token, app, waiting_ack_at, activity_type, environment, requested_interval, waiting_changed, "
        + CadenceColumns.list

    /// `columns` of the table named `alias` in the statement.
    public static func columns(alias: String) -> String { TargetColumns.aliased(columns, alias) }
}
