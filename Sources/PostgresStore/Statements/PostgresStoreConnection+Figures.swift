import LiveActivityDomain
import LiveActivityFigures
import LiveActivityStore
import PostgresClient

/// The figures' reads (SPEC 7) on PostgreSQL, query by query SQLite's: the trigger-kept group
/// counters, range counts on the registered_at index (which carries the kind), the partial
/// indexes of pushed and failing targets, the run history on its start-time index and the hourly
/// figures by their primary key; never a read of every target.
extension PostgresStoreConnection: FigureQueries {
    func registration(_ key: RegistrationKey, attempts: Bool) throws -> Registration? {
        try storeFaults {
            let rows = try statement(
                """
                SELECT \(TargetColumns.stored)\(attempts ? ", \(attemptsJoined)" : "") FROM push_targets
                WHERE registration_token = $1 AND app = $2
                """
            ).rows(
                [.text(key.token.hex), .text(key.app.rawValue)],
                refusing: { (row) throws(StoredValueError) in try StoredTargetRow(stored: row, attempts: attempts) })
            return try Registration(stored: rows)
        }
    }

    func groups() throws -> [StatsReport.Group] {
        try storeFaults {
            try statement("SELECT \(StatsReport.Group.storedColumns) FROM target_groups WHERE n > 0")
                .rows { StatsReport.Group(stored: $0) }.compactMap { $0 }
        }
    }

    /// From the counters, not a sum over the targets.
    func wakeupTotal() throws -> Int64 {
        try storeFaults {
            try statement("SELECT coalesce(sum(wakeups), 0)::bigint FROM target_groups WHERE push_kind = 'wake'")
                .scalarInt() ?? 0
        }
    }

    /// One pass over the registered_at index, which carries the kind, from the oldest bound on:
    /// every bound counted at once.
    func registeredAfter(_ bounds: [Int64]) throws -> [Int64] {
        guard let oldest = bounds.min() else { return [] }
        return try storeFaults {
            let counts = bounds.indices.map { "count(*) FILTER (WHERE registered_at > $\($0 + 2))" }.joined(separator: ", ")
            return try statement("SELECT \(counts) FROM push_targets WHERE registered_at > $1 AND push_kind = 'wake'")
                .firstRow([.integer(oldest)] + bounds.map { .integer($0) }) { row in bounds.indices.map { row.int(Int32($0)) } }
                ?? bounds.map { _ in 0 }
        }
    }

    func oldestRegisteredAt() throws -> Int64? {
        try storeFaults { try statement("SELECT min(registered_at) FROM push_targets WHERE push_kind = 'wake'").scalarInt() }
    }

    /// The partial index on push counts holds only pushed targets, by kind and count.
    func topWakeups(limit: Int) throws -> [StatsReport.TopCount] {
        try storeFaults {
            try statement(
                """
                SELECT substr(registration_token, 1, 8), push_count FROM push_targets WHERE push_kind = 'wake' AND push_count > 0
                ORDER BY push_count DESC, registration_token LIMIT $1
                """
            ).rows([.integer(Int64(limit))]) { row in StatsReport.TopCount(token: row.text(0) ?? "", count: row.int(1)) }
        }
    }

    /// From the partial index that holds only the failing targets.
    func backingOff() throws -> [StatsReport.BackingOff] {
        try storeFaults {
            try statement(
                """
                SELECT \(StatsReport.BackingOff.storedColumns), count(*) FROM push_targets WHERE consecutive_failures > 0
                GROUP BY environment, push_kind
                """
            ).rows { StatsReport.BackingOff(stored: $0) }.compactMap { $0 }
        }
    }

    /// The lifetime totals are kept per app and kind as runs are recorded, so pruning the history
    /// never lowers them (SPEC 7).
    func runTotals(since: Int64?) throws -> StatsReport.RunTotals {
        try storeFaults {
            var totals = StatsReport.RunTotals()
            let read = { (row: PostgresRow) in
                StatsReport.PushTotals(
                    kind: row.text(0) ?? "", sent: row.int(1), failed: row.int(2), removed: row.int(3), app: row.text(4) ?? "")
            }
            let kinds: [StatsReport.PushTotals]
            if let since {
                try statement("SELECT count(*), coalesce(sum(expired), 0)::bigint FROM sweep_runs WHERE started_at >= $1")
                    .firstRow([.integer(since)]) { row in (totals.runs, totals.expired) = (row.int(0), row.int(1)) }
                kinds = try statement(
                    """
                    SELECT push_kind, sum(sent)::bigint, sum(failed)::bigint, sum(removed)::bigint, app
                    FROM sweep_run_kinds WHERE started_at >= $1 GROUP BY 1, 5
                    """
                ).rows([.integer(since)], read)
            } else {
                try statement("SELECT runs, expired FROM sweep_totals WHERE id = 1").firstRow { row in
                    (totals.runs, totals.expired) = (row.int(0), row.int(1))
                }
                kinds = try statement("SELECT push_kind, sent, failed, removed, app FROM sweep_kind_totals").rows([], read)
            }
            return StatsReport.RunTotals.assembled(totals, kinds: kinds)
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

    func lastRunEnd(failingKinds: [String]) throws -> RunEnd? {
        try storeFaults {
            try statement(
                """
                SELECT started_at + duration_ms,
                       EXISTS (SELECT 1 FROM sweep_faults f WHERE f.run_id = sweep_runs.id AND f.kind = ANY($1::text[]))
                FROM sweep_runs ORDER BY id DESC LIMIT 1
                """
            ).firstRow([PostgresArray.text(failingKinds)]) { row in RunEnd(finishedAt: row.int(0), failed: row.bool(1)) }
        }
    }

    /// sweep_faults holds at most one per scope and kind in a run; the lifetime totals are kept
    /// by a trigger.
    func faults(since: Int64?) throws -> [StatsReport.FaultTotals] {
        try storeFaults {
            let read = { (row: PostgresRow) in
                StatsReport.FaultTotals(
                    environment: row.text(0) ?? "", pushKind: row.text(1) ?? "", kind: row.text(2) ?? "",
                    reason: row.text(3) ?? "", runs: row.int(4), pushes: row.int(5), lastAt: row.int(6), app: row.text(7) ?? "")
            }
            guard let since else {
                return try statement(
                    """
                    SELECT environment, push_kind, kind, reason, runs, pushes, last_at, app FROM sweep_fault_totals
                    """
                ).rows([], read)
            }
            return try statement(
                """
                SELECT f.environment, f.push_kind, f.kind, f.reason, count(*), sum(f.pushes)::bigint, max(r.started_at), f.app
                FROM sweep_faults f JOIN sweep_runs r ON r.id = f.run_id
                WHERE r.started_at >= $1 GROUP BY f.app, 1, 2, 3, 4
                """
            ).rows([.integer(since)], read)
        }
    }

    /// Summed in SQL with each stored count held to 2^50 (values read back are input: a planted
    /// one is a large figure, never an overflow of the sum).
    func withheld(since: Int64?) throws -> [WithheldWakes] {
        try storeFaults {
            guard let since else {
                return try statement(
                    "SELECT \(WithheldWakes.storedColumns), count FROM sweep_withheld_totals"
                ).rows([]) { WithheldWakes(stored: $0) }.compactMap { $0 }
            }
            return try statement(
                """
                SELECT \(WithheldWakes.storedColumns), sum(least(greatest(count, 0), 1125899906842624))::bigint FROM sweep_run_withheld
                WHERE started_at >= $1 GROUP BY 1, 2, 3, 4
                """
            ).rows([.integer(since)]) { WithheldWakes(stored: $0) }.compactMap { $0 }
        }
    }

    func lifetimeFailureReasons() throws -> [StatsReport.ReasonCount] {
        try storeFaults {
            try statement(
                """
                SELECT reason, count, push_kind FROM sweep_reason_totals WHERE kind = 'failed'
                """
            ).rows { StatsReport.ReasonCount(stored: $0) }.compactMap { $0 }
        }
    }

    func reasons(since: Int64) throws -> [RunReason] {
        try storeFaults {
            try statement(
                """
                SELECT s.kind, s.push_kind, s.reason, sum(s.count)::bigint FROM sweep_runs r JOIN sweep_reasons s ON s.run_id = r.id
                WHERE r.started_at >= $1 GROUP BY 1, 2, 3
                """
            ).rows([.integer(since)]) { RunReason(stored: $0) }.compactMap { $0 }
        }
    }

    func runBuckets(since: Int64, width: Int64) throws -> [StatsReport.SweepBucket] {
        try storeFaults {
            // Integer division that floors, as SQLite's does for the non-negative times stored.
            try statement(
                """
                SELECT started_at / $1, push_kind, count(*), max(active), sum(sent)::bigint, sum(failed)::bigint, app
                FROM sweep_run_kinds WHERE started_at >= $2 GROUP BY 1, 2, 7
                """
            ).rows([.integer(width), .integer(since)]) { StatsReport.SweepBucket(stored: $0, width: width) }.compactMap { $0 }
        }
    }

    private static let bucketSums = (0..<AckDelayBuckets.count).map { "sum(d\($0))::bigint" }.joined(separator: ", ")

    func deliveryWindows(sinceHour: Int64) throws -> [DeliveryReport.Window] {
        try storeFaults {
            try statement(
                """
                SELECT activity_type, push_kind, sum(delivered)::bigint, sum(acked)::bigint, sum(registrations)::bigint,
                       sum(delay_sum_ms)::bigint, \(Self.bucketSums), app
                FROM delivery_hours WHERE hour >= $1 GROUP BY app, push_kind, activity_type
                """
            ).rows([.integer(sinceHour)]) { row in
                var window = DeliveryReport.Window(
                    activityType: row.text(0) ?? "", kind: row.text(1) ?? "",
                    app: row.text(Int32(AckDelayBuckets.count + 6)) ?? "")
                window.delivered = row.int(2)
                window.acked = row.int(3)
                window.registrationHours = row.int(4)
                window.delaySumMilliseconds = row.int(5)
                window.delayBuckets = (0..<AckDelayBuckets.count).map { row.int(Int32($0 + 6)) }
                return window
            }
        }
    }

    func deliveryHours(sinceHour: Int64) throws -> [DeliveryHourFigures] {
        try storeFaults {
            try statement(
                """
                SELECT hour, sum(delivered)::bigint, sum(acked)::bigint, \(Self.bucketSums), app
                FROM delivery_hours WHERE hour >= $1 AND push_kind = 'wake' GROUP BY hour, app
                """
            ).rows([.integer(sinceHour)]) { DeliveryHourFigures(stored: $0) }
        }
    }

    func acks(sinceHour: Int64?) throws -> [AckOutcomeCount] {
        try storeFaults {
            guard let sinceHour else {
                return try statement("SELECT outcome, count, app FROM ack_totals").rows([]) { AckOutcomeCount(stored: $0) }
                    .compactMap { $0 }
            }
            return try statement("SELECT outcome, sum(count)::bigint, app FROM ack_hours WHERE hour >= $1 GROUP BY app, outcome")
                .rows([.integer(sinceHour)]) { AckOutcomeCount(stored: $0) }.compactMap { $0 }
        }
    }

    func ackDelayTotals() throws -> [AckDelayTotals] {
        try storeFaults {
            let buckets = try statement("SELECT bucket, count, app FROM ack_delay_totals").rows {
                (bucket: $0.int(0), count: $0.int(1), app: AppName(trusted: $0.text(2) ?? ""))
            }
            let sums = try statement("SELECT app, delay_sum_ms FROM ack_totals WHERE outcome = 'matched'").rows {
                (app: AppName(trusted: $0.text(0) ?? ""), sumMilliseconds: $0.int(1))
            }
            return AckDelayTotals.assembled(buckets: buckets, sums: sums)
        }
    }

    // MARK: - One device

    /// Ranges on the primary key and on the partial index of other kinds' own tokens: `token >=
    /// prefix AND token < prefix || 'g'` (tokens are lowercase hex, and 'g' sorts after every hex
    /// digit, in the byte order and in every collation's order of digits and letters).
    private static let prefixMatches = """
        SELECT registration_token, app FROM push_targets
        WHERE registration_token >= $1 AND registration_token < $2 AND push_kind = 'wake'
        UNION SELECT registration_token, app FROM push_targets WHERE push_token >= $1 AND push_token < $2 AND push_kind <> 'wake'
        """

    func tokens(withPrefix prefix: String, limit: Int) throws -> [RegistrationKey] {
        try storeFaults {
            try statement("\(Self.prefixMatches) ORDER BY 1, 2 LIMIT $3")
                .rows(
                    [.text(prefix), .text(prefix + "g"), .integer(Int64(limit))],
                    refusing: { (row) throws(StoredValueError) in
                        RegistrationKey(
                            app: try StoredValue.app(row.text(1)),
                            token: try StoredValue.token(row.text(0), column: "registration_token"))
                    })
        }
    }

    func tokenCount(withPrefix prefix: String) throws -> Int {
        try storeFaults {
            Int(
                try statement("SELECT count(*) FROM (\(Self.prefixMatches)) AS matches")
                    .scalarInt([.text(prefix), .text(prefix + "g")]) ?? 0)
        }
    }
}
