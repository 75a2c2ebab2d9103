import LiveActivityDomain
import LiveActivityFigures
import LiveActivityStore
import PostgresClient
import StoreSQL

/// The figures' reads (SPEC 7) on PostgreSQL, query by query SQLite's: the trigger-kept group
/// counters, range counts on the registered_at index (which carries the kind), the partial
/// indexes of pushed and failing targets, the run history on its start-time index and the hourly
/// figures by their primary key; never a read of every target.
extension PostgresStoreConnection: FigureQueries {
    func registration(_ key: RegistrationKey, attempts: Bool) throws -> Registration? {
        try storeFaults {
            let query: PostgresSQL = """
                SELECT \(raw: TargetColumns.stored)\(raw: attempts ? ", \(attemptsJoined)" : "") FROM push_targets
                WHERE registration_token = \(bind: key.token.hex) AND app = \(bind: key.app.rawValue)
                """
            let rows = try statement(query.text).rows(
                query.binds,
                refusing: { (row) throws(StoredValueError) in try StoredTargetRow(stored: row, attempts: attempts) })
            return try Registration(stored: rows)
        }
    }

    func groups() throws -> [StatsReport.Group] {
        try storeFaults {
            try rows(.figureGroups) { StatsReport.Group(stored: $0) }.compactMap { $0 }
        }
    }

    /// From the counters, not a sum over the targets.
    func wakeupTotal() throws -> Int64 {
        try storeFaults {
            try scalarInt("SELECT coalesce(sum(wakeups), 0)::bigint FROM target_groups WHERE \(raw: PushKind.wake.sqlIs())")
                ?? 0
        }
    }

    /// One pass over the registered_at index, which carries the kind, from the oldest bound on:
    /// every bound counted at once.
    func registeredAfter(_ bounds: [Int64]) throws -> [Int64] {
        guard let oldest = bounds.min() else { return [] }
        return try storeFaults {
            let counts = PostgresSQL.joined(
                bounds.map { "count(*) FILTER (WHERE registered_at > \(bind: $0))" }, separator: ", ")
            return try firstRow(
                "SELECT \(counts) FROM push_targets WHERE registered_at > \(bind: oldest) AND \(raw: PushKind.wake.sqlIs())"
            ) { row in bounds.indices.map { row.int(Int32($0)) } } ?? bounds.map { _ in 0 }
        }
    }

    func oldestRegisteredAt() throws -> Int64? {
        try storeFaults { try scalarInt(.oldestWakeRegistration) }
    }

    /// A scan of the table with a top-N sort: no index keeps the targets by push count (schema step 10).
    func topWakeups(limit: Int) throws -> [StatsReport.TopCount] {
        try storeFaults {
            try rows(.topWakeups(limit: limit)) { row in StatsReport.TopCount(token: row.text(0) ?? "", count: row.int(1)) }
        }
    }

    /// From the partial index that holds only the failing targets.
    func backingOff() throws -> [StatsReport.BackingOff] {
        try storeFaults {
            try rows(.backingOff) { StatsReport.BackingOff(stored: $0) }.compactMap { $0 }
        }
    }

    /// The lifetime totals are kept per app and kind as runs are recorded, so pruning the history
    /// never lowers them (SPEC 7).
    func runTotals(since: Int64?) throws -> StatsReport.RunTotals {
        try storeFaults {
            var totals = StatsReport.RunTotals()
            let read = { (row: PostgresRow) in StatsReport.PushTotals(stored: row) }
            let kinds: [StatsReport.PushTotals?]
            if let since {
                try firstRow(
                    "SELECT count(*), coalesce(sum(expired), 0)::bigint FROM sweep_runs WHERE started_at >= \(bind: since)"
                ) { row in (totals.runs, totals.expired) = (row.int(0), row.int(1)) }
                kinds = try rows(
                    """
                    SELECT push_kind, sum(sent)::bigint, sum(failed)::bigint, sum(removed)::bigint, app
                    FROM sweep_run_kinds WHERE started_at >= \(bind: since) GROUP BY 1, 5
                    """, read)
            } else {
                try firstRow(.lifetimeRuns) { row in
                    (totals.runs, totals.expired) = (row.int(0), row.int(1))
                }
                kinds = try rows(.lifetimeKindTotals, read)
            }
            return StatsReport.RunTotals.assembled(totals, kinds: kinds.compactMap { $0 })
        }
    }

    /// The run recorded last: by its id, the order of recording, not by any host's clock.
    func lastRun() throws -> RecordedRun? {
        try storeFaults {
            try firstRow(.lastRun) { RecordedRun(stored: $0) }
        }
    }

    func lastRunPerHost(since: Int64?, failingKinds: [String]) throws -> [HostRun] {
        try storeFaults {
            // The last run of each host by the order runs were recorded (its largest id), as `lastRun`.
            try rows(
                """
                SELECT DISTINCT ON (host) host, started_at, duration_ms, \(Self.failed(failingKinds))
                FROM sweep_runs WHERE started_at >= \(bind: since ?? Int64.min) ORDER BY host, id DESC
                """
            ) { row in
                HostRun(host: row.text(0) ?? "", startedAt: row.int(1), durationMilliseconds: row.int(2), failed: row.bool(3))
            }
        }
    }

    func lastRunEnd(failingKinds: [String]) throws -> RunEnd? {
        try storeFaults {
            try firstRow(
                "SELECT started_at + duration_ms, \(Self.failed(failingKinds)) FROM sweep_runs ORDER BY id DESC LIMIT 1"
            ) { row in RunEnd(finishedAt: row.int(0), failed: row.bool(1)) }
        }
    }

    /// Whether the run (a row of sweep_runs) had a fault of one of `kinds`, bound as one array.
    private static func failed(_ kinds: [String]) -> PostgresSQL {
        """
        EXISTS (SELECT 1 FROM sweep_faults f WHERE f.run_id = sweep_runs.id \
        AND f.kind = ANY(\(bind: PostgresArray.text(kinds))::text[]))
        """
    }

    /// sweep_faults holds at most one per scope and kind in a run; the lifetime totals are kept
    /// by a trigger.
    func faults(since: Int64?) throws -> [StatsReport.FaultTotals] {
        try storeFaults {
            let read = { (row: PostgresRow) in StatsReport.FaultTotals(stored: row) }
            guard let since else {
                return try rows(.lifetimeFaults, read).compactMap { $0 }
            }
            return try rows(
                """
                SELECT f.environment, f.push_kind, f.kind, f.reason, count(*), sum(f.pushes)::bigint, max(r.started_at), f.app
                FROM sweep_faults f JOIN sweep_runs r ON r.id = f.run_id
                WHERE r.started_at >= \(bind: since) GROUP BY f.app, 1, 2, 3, 4
                """, read
            ).compactMap { $0 }
        }
    }

    /// Summed in SQL with each stored count held to 2^50 (values read back are input: a planted
    /// one is a large figure, never an overflow of the sum).
    func withheld(since: Int64?) throws -> [WithheldWakes] {
        try storeFaults {
            guard let since else {
                return try rows(.lifetimeWithheld) { WithheldWakes(stored: $0) }.compactMap { $0 }
            }
            return try rows(
                """
                SELECT \(raw: WithheldWakes.storedColumns), sum(least(greatest(count, 0), 1125899906842624))::bigint
                FROM sweep_run_withheld WHERE started_at >= \(bind: since) GROUP BY 1, 2, 3, 4
                """
            ) { WithheldWakes(stored: $0) }.compactMap { $0 }
        }
    }

    func lifetimeFailureReasons() throws -> [StatsReport.ReasonCount] {
        try storeFaults {
            try rows(.lifetimeFailureReasons) { StatsReport.ReasonCount(stored: $0) }.compactMap { $0 }
        }
    }

    func reasons(since: Int64) throws -> [RunReason] {
        try storeFaults {
            try rows(
                """
                SELECT s.kind, s.push_kind, s.reason, sum(s.count)::bigint
                FROM sweep_runs r JOIN sweep_reasons s ON s.run_id = r.id WHERE r.started_at >= \(bind: since) GROUP BY 1, 2, 3
                """
            ) { RunReason(stored: $0) }.compactMap { $0 }
        }
    }

    func runBuckets(since: Int64, width: Int64) throws -> [StatsReport.SweepBucket] {
        try storeFaults {
            // Integer division that floors, as SQLite's does for the non-negative times stored.
            try rows(
                """
                SELECT started_at / \(bind: width), push_kind, count(*), max(active), sum(sent)::bigint, sum(failed)::bigint, app
                FROM sweep_run_kinds WHERE started_at >= \(bind: since) GROUP BY 1, 2, 7
                """
            ) { StatsReport.SweepBucket(stored: $0, width: width) }.compactMap { $0 }
        }
    }

    private static let bucketSums = (0..<AckDelayBuckets.count).map { "sum(d\($0))::bigint" }.joined(separator: ", ")

    func deliveryWindows(sinceHour: Int64) throws -> [DeliveryReport.Window] {
        try storeFaults {
            try rows(
                """
                SELECT activity_type, push_kind, sum(delivered)::bigint, sum(acked)::bigint, sum(registrations)::bigint,
                       sum(delay_sum_ms)::bigint, \(raw: Self.bucketSums), app
                FROM delivery_hours WHERE hour >= \(bind: sinceHour) GROUP BY app, push_kind, activity_type
                """
            ) { DeliveryReport.Window(stored: $0) }.compactMap { $0 }
        }
    }

    func deliveryHours(sinceHour: Int64) throws -> [DeliveryHourFigures] {
        try storeFaults {
            try rows(
                """
                SELECT hour, sum(delivered)::bigint, sum(acked)::bigint, \(raw: Self.bucketSums), app
                FROM delivery_hours WHERE hour >= \(bind: sinceHour) AND \(raw: PushKind.wake.sqlIs()) GROUP BY hour, app
                """
            ) { DeliveryHourFigures(stored: $0) }
        }
    }

    func acks(sinceHour: Int64?) throws -> [AckOutcomeCount] {
        try storeFaults {
            guard let sinceHour else {
                return try rows(.lifetimeAcks) { AckOutcomeCount(stored: $0) }.compactMap { $0 }
            }
            return try rows(
                "SELECT outcome, sum(count)::bigint, app FROM ack_hours WHERE hour >= \(bind: sinceHour) GROUP BY app, outcome"
            ) { AckOutcomeCount(stored: $0) }.compactMap { $0 }
        }
    }

    func ackDelayTotals() throws -> [AckDelayTotals] {
        try storeFaults {
            let buckets = try rows(.lifetimeAckDelayBuckets) {
                (bucket: $0.int(0), count: $0.int(1), app: AppName(trusted: $0.text(2) ?? ""))
            }
            let sums = try rows(.lifetimeAckDelaySums) {
                (app: AppName(trusted: $0.text(0) ?? ""), sumMilliseconds: $0.int(1))
            }
            return AckDelayTotals.assembled(buckets: buckets, sums: sums)
        }
    }

    // MARK: - One device

    func tokens(withPrefix prefix: String, limit: Int) throws -> [RegistrationKey] {
        try storeFaults {
            let matches: PostgresSQL = "\(PostgresSQL.prefixMatches(prefix)) ORDER BY 1, 2 LIMIT \(bind: Int64(limit))"
            return try statement(matches.text).rows(
                matches.binds,
                refusing: { (row) throws(StoredValueError) in
                    RegistrationKey(
                        app: try StoredValue.app(row.text(1)),
                        token: try StoredValue.token(row.text(0), column: "registration_token"))
                })
        }
    }

    func tokenCount(withPrefix prefix: String) throws -> Int {
        try storeFaults {
            Int(try scalarInt("SELECT count(*) FROM (\(PostgresSQL.prefixMatches(prefix))) AS matches") ?? 0)
        }
    }
}
