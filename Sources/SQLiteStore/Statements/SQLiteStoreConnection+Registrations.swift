import LiveActivityDomain
import LiveActivityStore
import SQLiteClient

/// The responder's statements (SPEC 3) on SQLite: one prepared statement run per write, inside
/// the writer's `BEGIN IMMEDIATE` transaction (SQLite has no round trips to save). Their texts
/// are literals (`StaticString`), so each is found by its address, not by hashing its text.
extension SQLiteStoreConnection: RegistrationStatements {
    /// A refresh that moves the token to another environment forgets its 200s there: a token
    /// proven in production is not proven in sandbox (SPEC 5, guard).
    private static let refreshSQL: StaticString = """
        UPDATE registrations SET activity_type = ?2, registered_at = ?4, expires_at = ?5, next_push_at = ?4,
            consecutive_failures = 0, last_error = NULL, requested_interval = ?6,
            last_push_at = CASE WHEN environment = ?3 THEN last_push_at END, environment = ?3
        WHERE push_token = ?1
        """
    private static let insertSQL: StaticString = """
        INSERT INTO registrations (push_token, activity_type, environment, registered_at, expires_at, next_push_at,
            requested_interval)
        VALUES (?1, ?2, ?3, ?4, ?5, ?4, ?6)
        """
    private static let countsSQL: StaticString =
        """
        SELECT environment, sum(min(max(n, 0), 1125899906842624)), sum(min(max(unproven, 0), 1125899906842624))
        FROM registration_groups GROUP BY environment
        """
    private static let deleteSQL: StaticString = "DELETE FROM registrations WHERE push_token = ?"
    /// SQLite's write lock, taken at BEGIN IMMEDIATE, already holds the sweep's writes back.
    private static let ackSubjectSQL: StaticString = """
        SELECT activity_type, environment, requested_interval, next_push_at, attempts, waiting_ack_at
        FROM registrations WHERE push_token = ?
        """
    private static let markAckSQL: StaticString = "UPDATE registrations SET attempts = ?2 WHERE push_token = ?1"
    private static let waitAckSQL: StaticString = "UPDATE registrations SET waiting_ack_at = ?2 WHERE push_token = ?1"
    private static let countAckHourSQL: StaticString = """
        INSERT INTO ack_hours (hour, outcome, count) VALUES (?, ?, 1)
        ON CONFLICT (hour, outcome) DO UPDATE SET count = count + 1
        """
    private static let countAckTotalSQL: StaticString = """
        INSERT INTO ack_totals (outcome, count, delay_sum_ms) VALUES (?, 1, ?)
        ON CONFLICT (outcome) DO UPDATE SET count = count + 1, delay_sum_ms = delay_sum_ms + excluded.delay_sum_ms
        """
    private static let countAckDelaySQL: StaticString =
        "INSERT INTO ack_delay_totals (bucket, count) VALUES (?, 1) ON CONFLICT (bucket) DO UPDATE SET count = count + 1"

    func refresh(_ registrations: [NewRegistration]) throws -> [Bool] {
        try storeFaults {
            let statement = try connection.statement(Self.refreshSQL)
            return try registrations.map { registration in
                try statement.run(Self.values(registration))
                return connection.changes > 0
            }
        }
    }

    func insert(_ registrations: [NewRegistration]) throws {
        try storeFaults {
            let statement = try connection.statement(Self.insertSQL)
            for registration in registrations { try statement.run(Self.values(registration)) }
        }
    }

    private static func values(_ registration: NewRegistration) -> [PreparedStatement.Value] {
        [
            .text(registration.token.hex), .text(registration.activityType.rawValue), .text(registration.environment.rawValue),
            .integer(registration.registeredAt), .integer(registration.expiresAt),
            registration.requestedInterval.map { .integer(Int64($0)) } ?? .null,
        ]
    }

    func registrationCounts() throws -> RegistrationCounts {
        try storeFaults {
            let groups = try connection.statement(Self.countsSQL).rows { ($0.text(0), $0.int(1), $0.int(2)) }
            return RegistrationCounts(groups)
        }
    }

    func delete(_ tokens: [PushToken]) throws -> [Bool] {
        try storeFaults {
            let statement = try connection.statement(Self.deleteSQL)
            return try tokens.map { token in
                try statement.run([.text(token.hex)])
                return connection.changes > 0
            }
        }
    }

    func ackSubjects(_ tokens: [PushToken]) throws -> [AckSubject?] {
        try storeFaults {
            let statement = try connection.statement(Self.ackSubjectSQL)
            return try tokens.map { token in
                try statement.firstRow(
                    [.text(token.hex)],
                    refusing: { (row) throws(StoredValueError) in
                        AckSubject(
                            activityType: try StoredValue.activityType(row.text(0)),
                            environment: try StoredValue.environment(row.text(1)),
                            requestedInterval: try StoredValue.requestedInterval(row.optionalInt(2)),
                            nextPushAt: try StoredValue.time(row.int(3), column: "next_push_at"),
                            attempts: AttemptRing.decode(row.blob(4) ?? [], token: token),
                            waitingAckAt: try StoredValue.optionalTime(row.optionalInt(5), column: "waiting_ack_at"))
                    })
            }
        }
    }

    func write(_ acks: [AckWrite]) throws {
        try storeFaults {
            for ack in acks {
                switch ack {
                case .mark(let token, let attempts):
                    try connection.statement(Self.markAckSQL)
                        .run([.text(token.hex), .blob(AttemptRing.encode(attempts))])
                case .wait(let token, let at):
                    try connection.statement(Self.waitAckSQL)
                        .run([.text(token.hex), .integer(at)])
                }
            }
        }
    }

    func count(_ acks: [AckCount]) throws {
        try storeFaults {
            for ack in acks {
                try connection.statement(Self.countAckHourSQL).run([
                    .integer(DeliveryHour.of(ack.at)), .text(ack.outcome.rawValue),
                ])
                try connection.statement(Self.countAckTotalSQL).run([
                    .text(ack.outcome.rawValue), .integer(ack.match?.delayMilliseconds ?? 0),
                ])
                guard let match = ack.match else { continue }
                let bucket = AckDelayBuckets.index(ofMilliseconds: match.delayMilliseconds)
                // The column of the delay's bucket (d0 ... d10, schema step 7 → 8): a statement per bucket, each prepared once.
                try connection.statement(
                    """
                    INSERT INTO delivery_hours (hour, activity_type, environment, acked, delay_sum_ms, d\(bucket)) VALUES (?, ?, ?, 1, ?, 1)
                    ON CONFLICT (hour, activity_type, environment) DO UPDATE SET
                        acked = acked + 1, delay_sum_ms = delay_sum_ms + excluded.delay_sum_ms, d\(bucket) = d\(bucket) + 1
                    """
                ).run([
                    .integer(DeliveryHour.of(match.answeredAt)), .text(match.activityType.rawValue),
                    .text(match.environment.rawValue), .integer(match.delayMilliseconds),
                ])
                try connection.statement(Self.countAckDelaySQL).run([.integer(Int64(bucket))])
            }
        }
    }
}
