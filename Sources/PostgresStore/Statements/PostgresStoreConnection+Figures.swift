import LiveActivityDomain
import LiveActivityFigures
import LiveActivityStore
import PostgresClient

/// The figures' reads (SPEC 7) on PostgreSQL: the trigger-kept group counters, range counts on the
/// registered_at index, the partial indexes of pushed and failing rows, the run history on its
/// start-time index and the hourly figures by their primary key; never a read of every row.
extension PostgresStoreConnection: FigureQueries {
    /// The columns of a whole registration, in the order `PostgresRow.registration()` reads them.
    static let registrationColumns = """
        push_token, activity_type, environment, registered_at, expires_at, next_push_at,
        last_push_at, wakeup_count, consecutive_failures, last_error, requested_interval
        """

    func registration(_ token: PushToken) throws -> Registration? {
        try storeFaults {
            try statement("SELECT \(Self.registrationColumns) FROM registrations WHERE push_token = $1")
                .firstRow([.text(token.hex)], refusing: { (row) throws(StoredValueError) in try row.registration() })
        }
    }

    func groups() throws -> [StatsReport.Group] {
        try storeFaults {
            try statement(
                "SELECT activity_type, environment, n FROM registration_groups WHERE n > 0 ORDER BY activity_type, environment"
            ).rows { row in StatsReport.Group(activityType: row.text(0) ?? "", environment: row.text(1) ?? "", count: row.int(2))
            }
        }
    }

    func wakeupTotal() throws -> Int64 {
        try storeFaults {
            try statement("SELECT coalesce(sum(wakeup_count), 0)::bigint FROM registrations WHERE wakeup_count > 0").scalarInt()
                ?? 0
        }
    }

    func registeredAfter(_ bounds: [Int64]) throws -> [Int64] {
        try storeFaults {
            let newer = try statement("SELECT count(*) FROM registrations WHERE registered_at > $1")
            return try bounds.map { try newer.scalarInt([.integer($0)]) ?? 0 }
        }
    }

    func oldestRegisteredAt() throws -> Int64? {
        try storeFaults { try statement("SELECT min(registered_at) FROM registrations").scalarInt() }
    }

    func topWakeups(limit: Int) throws -> [(prefix: String, count: Int64)] {
        try storeFaults {
            try statement(
                """
                SELECT substr(push_token, 1, 8), wakeup_count FROM registrations WHERE wakeup_count > 0
                ORDER BY wakeup_count DESC, push_token LIMIT $1
                """
            ).rows([.integer(Int64(limit))]) { row in (row.text(0) ?? "", row.int(1)) }
        }
    }

    func backingOff() throws -> [(environment: String, count: Int64)] {
        try storeFaults {
            try statement("SELECT environment, count(*) FROM registrations WHERE consecutive_failures > 0 GROUP BY environment")
                .rows { row in (row.text(0) ?? "", row.int(1)) }
        }
    }

    func runTotals(since: Int64?) throws -> StatsReport.RunTotals {
        try storeFaults {
            let read = { (row: PostgresRow) in
                StatsReport.RunTotals(
                    runs: row.int(0), sent: row.int(1), failed: row.int(2), removed: row.int(3), expired: row.int(4))
            }
            guard let since else {
                return try statement("SELECT runs, sent, failed, removed, expired FROM sweep_totals WHERE id = 1")
                    .firstRow([], read) ?? StatsReport.RunTotals()
            }
            return try statement(
                """
                SELECT count(*), coalesce(sum(sent), 0)::bigint, coalesce(sum(failed), 0)::bigint,
                       coalesce(sum(removed), 0)::bigint, coalesce(sum(expired), 0)::bigint
                FROM sweep_runs WHERE started_at >= $1
                """
            ).firstRow([.integer(since)], read) ?? StatsReport.RunTotals()
        }
    }

    /// The run recorded last: by its id, the order of recording, not by any host's clock.
    func lastRun() throws -> RecordedRun? {
        try storeFaults {
            try statement("SELECT started_at, duration_ms, outcome FROM sweep_runs ORDER BY id DESC LIMIT 1")
                .firstRow { row in RecordedRun(startedAt: row.int(0), durationMilliseconds: row.int(1), outcome: row.text(2)) }
        }
    }

    func lastRunPerHost(since: Int64?, failingKinds: [String]) throws -> [HostRun] {
        try storeFaults {
            // The last run of each host by the order runs were recorded (its largest id), as `lastRun`.
            try statement(
                """
                SELECT DISTINCT ON (host) host, started_at, duration_ms,
                       EXISTS (SELECT 1 FROM sweep_faults f WHERE f.run_id = sweep_runs.id AND f.kind = ANY($2::text[]))
                FROM sweep_runs WHERE started_at >= $1 ORDER BY host, id DESC
                """
            ).rows([.integer(since ?? Int64.min), PostgresArray.text(failingKinds)]) { row in
                HostRun(host: row.text(0) ?? "", startedAt: row.int(1), durationMilliseconds: row.int(2), failed: row.bool(3))
            }
        }
    }

    func lastRunEnd(failingKinds: [String]) throws -> (finishedAt: Int64, failed: Bool)? {
        try storeFaults {
            try statement(
                """
                SELECT started_at + duration_ms,
                       EXISTS (SELECT 1 FROM sweep_faults f WHERE f.run_id = sweep_runs.id AND f.kind = ANY($1::text[]))
                FROM sweep_runs ORDER BY id DESC LIMIT 1
                """
            ).firstRow([PostgresArray.text(failingKinds)]) { row in (row.int(0), row.bool(1)) }
        }
    }

    func faults(since: Int64?) throws -> [StatsReport.FaultTotals] {
        try storeFaults {
            let read = { (row: PostgresRow) in
                StatsReport.FaultTotals(
                    environment: row.text(0) ?? "", kind: row.text(1) ?? "", reason: row.text(2) ?? "", runs: row.int(3),
                    pushes: row.int(4), lastAt: row.int(5))
            }
            guard let since else {
                return try statement(
                    "SELECT environment, kind, reason, runs, pushes, last_at FROM sweep_fault_totals ORDER BY 1, 2, 3"
                ).rows([], read)
            }
            return try statement(
                """
                SELECT f.environment, f.kind, f.reason, count(*), sum(f.pushes)::bigint, max(r.started_at)
                FROM sweep_faults f JOIN sweep_runs r ON r.id = f.run_id
                WHERE r.started_at >= $1 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
                """
            ).rows([.integer(since)], read)
        }
    }

    func lifetimeFailureReasons() throws -> [(reason: String, count: Int64)] {
        try storeFaults {
            try statement("SELECT reason, count FROM sweep_reason_totals WHERE kind = $1 ORDER BY reason")
                .rows([.text("failed")]) { row in (row.text(0) ?? "", row.int(1)) }
        }
    }

    func reasons(since: Int64) throws -> [(kind: String, reason: String, count: Int64)] {
        try storeFaults {
            try statement(
                """
                SELECT s.kind, s.reason, sum(s.count)::bigint FROM sweep_runs r JOIN sweep_reasons s ON s.run_id = r.id
                WHERE r.started_at >= $1 GROUP BY 1, 2 ORDER BY 3 DESC, 2
                """
            ).rows([.integer(since)]) { row in (row.text(0) ?? "", row.text(1) ?? "", row.int(2)) }
        }
    }

    func runBuckets(since: Int64, width: Int64) throws -> [StatsReport.SweepBucket] {
        try storeFaults {
            // Integer division that floors, as SQLite's does for the non-negative times stored.
            try statement(
                """
                SELECT started_at / $1, count(*), max(active), sum(sent)::bigint, sum(failed)::bigint FROM sweep_runs
                WHERE started_at >= $2 GROUP BY 1 ORDER BY 1
                """
            ).rows([.integer(width), .integer(since)]) { row in
                StatsReport.SweepBucket(
                    start: row.int(0) * width, runs: row.int(1), active: row.int(2), sent: row.int(3), failed: row.int(4))
            }
        }
    }

    private static let bucketSums = (0..<AckDelayBuckets.count).map { "sum(d\($0))::bigint" }.joined(separator: ", ")

    func deliveryWindows(sinceHour: Int64) throws -> [DeliveryReport.Window] {
        try storeFaults {
            try statement(
                """
                SELECT activity_type, sum(delivered)::bigint, sum(acked)::bigint, sum(registrations)::bigint,
                       sum(delay_sum_ms)::bigint, \(Self.bucketSums)
                FROM delivery_hours WHERE hour >= $1 GROUP BY activity_type ORDER BY activity_type
                """
            ).rows([.integer(sinceHour)]) { row in
                var window = DeliveryReport.Window(activityType: row.text(0) ?? "")
                window.delivered = row.int(1)
                window.acked = row.int(2)
                window.registrationHours = row.int(3)
                window.delaySumMilliseconds = row.int(4)
                window.delayBuckets = (0..<AckDelayBuckets.count).map { row.int(Int32($0 + 5)) }
                return window
            }
        }
    }

    func deliveryHours(sinceHour: Int64) throws -> [(hour: Int64, delivered: Int64, acked: Int64, delays: [Int64])] {
        try storeFaults {
            try statement(
                """
                SELECT hour, sum(delivered)::bigint, sum(acked)::bigint, \(Self.bucketSums)
                FROM delivery_hours WHERE hour >= $1 GROUP BY hour ORDER BY hour
                """
            ).rows([.integer(sinceHour)]) { row in
                (row.int(0), row.int(1), row.int(2), (0..<AckDelayBuckets.count).map { row.int(Int32($0 + 3)) })
            }
        }
    }

    func acks(sinceHour: Int64?) throws -> [(outcome: String, count: Int64)] {
        try storeFaults {
            guard let sinceHour else {
                return try statement("SELECT outcome, count FROM ack_totals").rows { row in (row.text(0) ?? "", row.int(1)) }
            }
            return try statement("SELECT outcome, sum(count)::bigint FROM ack_hours WHERE hour >= $1 GROUP BY outcome")
                .rows([.integer(sinceHour)]) { row in (row.text(0) ?? "", row.int(1)) }
        }
    }

    func ackDelayTotals() throws -> (buckets: [(bucket: Int64, count: Int64)], sumMilliseconds: Int64) {
        try storeFaults {
            let buckets = try statement("SELECT bucket, count FROM ack_delay_totals").rows { row in (row.int(0), row.int(1)) }
            let sum = try statement("SELECT delay_sum_ms FROM ack_totals WHERE outcome = 'matched'").scalarInt() ?? 0
            return (buckets, sum)
        }
    }

    // MARK: - One device

    /// A range on the primary key (tokens are lowercase hex, and 'g' sorts after every hex digit,
    /// in the byte order and in every collation's order of digits and letters).
    func tokens(withPrefix prefix: String, limit: Int) throws -> [String] {
        try storeFaults {
            try statement(
                """
                SELECT push_token FROM registrations WHERE push_token >= $1 AND push_token < $2 ORDER BY push_token LIMIT $3
                """
            ).rows([.text(prefix), .text(prefix + "g"), .integer(Int64(limit))]) { $0.text(0) ?? "" }
        }
    }

    func tokenCount(withPrefix prefix: String) throws -> Int {
        try storeFaults {
            Int(
                try statement(
                    "SELECT count(*) FROM registrations WHERE push_token >= $1 AND push_token < $2"
                ).scalarInt([.text(prefix), .text(prefix + "g")]) ?? 0)
        }
    }

    func registrationAndAttempts(_ token: PushToken) throws -> (Registration, [PushAttempt])? {
        try storeFaults {
            try statement("SELECT \(Self.registrationColumns), \(attemptsJoined) FROM registrations WHERE push_token = $1")
                .firstRow(
                    [.text(token.hex)],
                    refusing: { (row) throws(StoredValueError) in
                        (try row.registration(), AttemptRing.decode(row.bytes(11) ?? [], token: token))
                    })
        }
    }
}

extension PostgresRow {
    /// The columns `registrationColumns` selects, each checked (`StoredValue`).
    func registration() throws(StoredValueError) -> Registration {
        Registration(
            token: try StoredValue.token(text(0)), activityType: try StoredValue.activityType(text(1)),
            environment: try StoredValue.environment(text(2)),
            registeredAt: try StoredValue.time(int(3), column: "registered_at"),
            expiresAt: try StoredValue.time(int(4), column: "expires_at"),
            nextPushAt: try StoredValue.time(int(5), column: "next_push_at"),
            lastPushAt: try StoredValue.optionalTime(optionalInt(6), column: "last_push_at"),
            wakeupCount: try StoredValue.count(int(7), in: StoredValue.wakeups, column: "wakeup_count"),
            consecutiveFailures: try StoredValue.count(int(8), in: StoredValue.failures, column: "consecutive_failures"),
            lastError: text(9), requestedInterval: try StoredValue.requestedInterval(optionalInt(10)))
    }
}
