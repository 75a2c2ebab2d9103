import LiveActivityDomain
import LiveActivityStore
import PostgresClient

/// The responder's statements (SPEC 3) on PostgreSQL: each over a whole group-commit batch in one
/// statement (arrays unnested), so a batch costs a few round trips whatever its size.
extension PostgresStoreConnection: RegistrationStatements {
    func refresh(_ registrations: [NewRegistration]) throws -> [Bool] {
        guard !registrations.isEmpty else { return [] }
        return try storeFaults {
            // A refresh that moves the token to another environment forgets its 200s there (SPEC 5,
            // guard), and takes the row out of any sweep's lease: that sweep's write is skipped.
            let refreshed = try statement(
                """
                UPDATE registrations r SET activity_type = u.activity_type, registered_at = u.at, expires_at = u.expires,
                    next_push_at = u.at, consecutive_failures = 0, last_error = NULL, requested_interval = u.interval,
                    last_push_at = CASE WHEN r.environment = u.environment THEN r.last_push_at END,
                    environment = u.environment, lease_id = NULL, lease_until = NULL
                FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[])
                    AS u(token, activity_type, environment, at, expires, interval)
                WHERE r.push_token = u.token
                RETURNING r.push_token
                """
            ).rows(Self.columns(registrations)) { $0.text(0) ?? "" }
            let found = Set(refreshed)
            return registrations.map { found.contains($0.token.hex) }
        }
    }

    func insert(_ registrations: [NewRegistration]) throws {
        guard !registrations.isEmpty else { return }
        try storeFaults {
            try statement(
                """
                INSERT INTO registrations (push_token, activity_type, environment, registered_at, expires_at, next_push_at,
                    requested_interval)
                SELECT token, activity_type, environment, at, expires, at, interval
                FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[])
                    AS u(token, activity_type, environment, at, expires, interval)
                """
            ).run(Self.columns(registrations))
        }
    }

    private static func columns(_ registrations: [NewRegistration]) -> [PostgresValue] {
        [
            PostgresArray.text(registrations.map(\.token.hex)), PostgresArray.text(registrations.map(\.activityType.rawValue)),
            PostgresArray.text(registrations.map(\.environment.rawValue)),
            PostgresArray.integers(registrations.map(\.registeredAt)),
            PostgresArray.integers(registrations.map(\.expiresAt)),
            PostgresArray.integers(registrations.map { $0.requestedInterval.map(Int64.init) }),
        ]
    }

    func registrationCounts() throws -> RegistrationCounts {
        try storeFaults {
            let groups = try statement(
                """
                SELECT environment, sum(least(greatest(n, 0), 1125899906842624))::bigint,
                    sum(least(greatest(unproven, 0), 1125899906842624))::bigint
                FROM registration_groups GROUP BY environment
                """
            ).rows { ($0.text(0), $0.int(1), $0.int(2)) }
            return RegistrationCounts(groups)
        }
    }

    func delete(_ tokens: [PushToken]) throws -> [Bool] {
        guard !tokens.isEmpty else { return [] }
        return try storeFaults {
            let deleted = Set(
                try statement("DELETE FROM registrations WHERE push_token = ANY($1::text[]) RETURNING push_token")
                    .rows([PostgresArray.text(tokens.map(\.hex))]) { $0.text(0) ?? "" })
            return tokens.map { deleted.contains($0.hex) }
        }
    }

    /// The rows locked (`FOR UPDATE`) until the transaction ends: a sweep's write of the same
    /// row waits, and an ack never judges attempts a commit is about to change.
    func ackSubjects(_ tokens: [PushToken]) throws -> [AckSubject?] {
        guard !tokens.isEmpty else { return [] }
        return try storeFaults {
            let rows = try statement(
                """
                SELECT push_token, activity_type, environment, requested_interval, next_push_at, \(attemptsJoined), waiting_ack_at
                FROM registrations WHERE push_token = ANY($1::text[]) ORDER BY push_token FOR UPDATE
                """
            ).rows(
                [PostgresArray.text(tokens.map(\.hex))],
                refusing: { (row) throws(StoredValueError) in
                    let token = try StoredValue.token(row.text(0))
                    return (
                        token.hex,
                        AckSubject(
                            activityType: try StoredValue.activityType(row.text(1)),
                            environment: try StoredValue.environment(row.text(2)),
                            requestedInterval: try StoredValue.requestedInterval(row.optionalInt(3)),
                            nextPushAt: try StoredValue.time(row.int(4), column: "next_push_at"),
                            attempts: AttemptRing.decode(row.bytes(5) ?? [], token: token),
                            waitingAckAt: try StoredValue.optionalTime(row.optionalInt(6), column: "waiting_ack_at"))
                    )
                })
            let byToken = Dictionary(rows, uniquingKeysWith: { first, _ in first })
            return tokens.map { byToken[$0.hex] }
        }
    }

    func write(_ acks: [AckWrite]) throws {
        try storeFaults {
            for ack in acks {
                switch ack {
                case .mark(let token, let attempts):
                    try statement(
                        """
                        UPDATE registrations SET attempts = ARRAY(SELECT decode(h, 'hex') FROM unnest($2::text[]) WITH ORDINALITY AS a(h, o) ORDER BY o)
                        WHERE push_token = $1
                        """
                    ).run([.text(token.hex), PostgresArray.text(Self.entries(attempts))])
                case .wait(let token, let at):
                    try statement("UPDATE registrations SET waiting_ack_at = $2 WHERE push_token = $1").run([
                        .text(token.hex), .integer(at),
                    ])
                }
            }
        }
    }

    /// Each attempt's entry (`AttemptRing`) as hex, newest first, the first 20.
    static func entries(_ attempts: [PushAttempt]) -> [String?] {
        attempts.prefix(PushAttempt.kept).map { PostgresArray.hex(AttemptRing.entry($0)) }
    }

    func count(_ acks: [AckCount]) throws {
        guard !acks.isEmpty else { return }
        try storeFaults {
            // One round trip for every counter of every ack.
            let hours = try statement(
                """
                INSERT INTO ack_hours AS a (hour, outcome, count) VALUES ($1, $2, 1)
                ON CONFLICT (hour, outcome) DO UPDATE SET count = a.count + 1
                """)
            let totals = try statement(
                """
                INSERT INTO ack_totals AS a (outcome, count, delay_sum_ms) VALUES ($1, 1, $2)
                ON CONFLICT (outcome) DO UPDATE SET count = a.count + 1, delay_sum_ms = a.delay_sum_ms + excluded.delay_sum_ms
                """)
            let delays = try statement(
                "INSERT INTO ack_delay_totals AS a (bucket, count) VALUES ($1, 1) ON CONFLICT (bucket) DO UPDATE SET count = a.count + 1"
            )
            var delivered: [Int: PostgresStatement] = [:]
            for ack in acks {
                guard let match = ack.match else { continue }
                let bucket = AckDelayBuckets.index(ofMilliseconds: match.delayMilliseconds)
                if delivered[bucket] == nil {
                    // The column of the delay's bucket (d0 ... d10): a statement per bucket, each prepared once.
                    delivered[bucket] = try statement(
                        """
                        INSERT INTO delivery_hours AS h (hour, activity_type, environment, acked, delay_sum_ms, d\(bucket))
                        VALUES ($1, $2, $3, 1, $4, 1)
                        ON CONFLICT (hour, activity_type, environment) DO UPDATE SET
                            acked = h.acked + 1, delay_sum_ms = h.delay_sum_ms + excluded.delay_sum_ms, d\(bucket) = h.d\(bucket) + 1
                        """)
                }
            }
            _ = try connection.pipeline { pipeline in
                for ack in acks {
                    pipeline.run(hours, [.integer(DeliveryHour.of(ack.at)), .text(ack.outcome.rawValue)])
                    pipeline.run(totals, [.text(ack.outcome.rawValue), .integer(ack.match?.delayMilliseconds ?? 0)])
                    guard let match = ack.match else { continue }
                    let bucket = AckDelayBuckets.index(ofMilliseconds: match.delayMilliseconds)
                    if let statement = delivered[bucket] {
                        pipeline.run(
                            statement,
                            [
                                .integer(DeliveryHour.of(match.answeredAt)), .text(match.activityType.rawValue),
                                .text(match.environment.rawValue), .integer(match.delayMilliseconds),
                            ])
                    }
                    pipeline.run(delays, [.integer(Int64(bucket))])
                }
            }
        }
    }
}
