import LiveActivityDomain
import LiveActivityFigures
import LiveActivityStore
import SQLiteClient
import StoreSQL

/// The figures' reads (SPEC 7) on SQLite, without reading the targets themselves: the
/// trigger-kept group counters, range counts on the registered_at index (index entries are cheap
/// to count: 30 ms for a million), the partial indexes of pushed and failing targets, the run
/// history on its start-time index and the hourly figures by their primary key.
extension SQLiteStoreConnection: FigureQueries {
    func registration(_ key: RegistrationKey, attempts: Bool) throws -> Registration? {
        try storeFaults {
            let query: SQLiteSQL = """
                SELECT \(raw: TargetColumns.stored)\(raw: attempts ? ", attempts" : "") FROM push_targets
                WHERE registration_token = \(bind: key.token.hex) AND app = \(bind: key.app.rawValue)
                """
            let rows = try connection.statement(query.text).rows(query.binds) { (row) throws(StoredValueError) in
                try StoredTargetRow(stored: row, attempts: attempts)
            }
            return try Registration(stored: rows)
        }
    }

    func groups() throws -> [StatsReport.Group] {
        try storeFaults {
            try connection.rows(.figureGroups) { StatsReport.Group(stored: $0) }.compactMap { $0 }
        }
    }

    /// From the counters: the sum over the targets' index cost 14 ms at 100,000.
    func wakeupTotal() throws -> Int64 {
        try storeFaults {
            try connection.scalarInt(
                "SELECT coalesce(sum(wakeups), 0) FROM target_groups WHERE \(raw: PushKind.wake.sqlIs())") ?? 0
        }
    }

    /// A range count per bound on the wake targets' registered_at index (covering, no kind to
    /// compare), stepping through the side of the bound with fewer entries: an entry of this
    /// WITHOUT ROWID table carries its 64-character token, so stepping through every registration
    /// costs 8 ms at 100,000, and the 8-hour bound, with registrations expiring at 8 hours, has all
    /// of them after it and only those awaiting expiry before. The side is judged from the oldest
    /// and newest registration times (registrations come at a steady rate, the usual case; a wrong
    /// guess costs time, never a figure): the older side is counted against the counters' total
    /// in one statement, one snapshot.
    func registeredAfter(_ bounds: [Int64]) throws -> [Int64] {
        try storeFaults {
            let wake = PushKind.wake.sqlIs()
            let oldest = try connection.scalarInt(.oldestWakeRegistration)
            let newest = try connection.scalarInt("SELECT max(registered_at) FROM push_targets WHERE \(raw: wake)")
            guard let oldest, let newest else { return bounds.map { _ in 0 } }
            return try bounds.map { bound in
                let counted: SQLiteSQL =
                    bound.subtractingSaturated(oldest) < newest.subtractingSaturated(bound)
                    ? """
                    SELECT (SELECT coalesce(sum(n), 0) FROM target_groups WHERE \(raw: wake))
                         - (SELECT count(*) FROM push_targets WHERE \(raw: wake) AND registered_at <= \(bind: bound))
                    """
                    : "SELECT count(*) FROM push_targets WHERE \(raw: wake) AND registered_at > \(bind: bound)"
                return max(0, try connection.scalarInt(counted) ?? 0)
            }
        }
    }

    func oldestRegisteredAt() throws -> Int64? {
        try storeFaults {
            try connection.scalarInt(.oldestWakeRegistration)
        }
    }

    /// The most pushed wake targets, by the statement below.
    func topWakeups(limit: Int) throws -> [StatsReport.TopCount] {
        try storeFaults {
            try connection.rows(Self.topWakeups(limit: limit)) { row in
                StatsReport.TopCount(token: row.text(0) ?? "", count: row.int(1))
            }
        }
    }

    /// A covering scan of the due index, which carries `push_count` (schema step 19): named,
    /// since the planner, without statistics, reads the table through the partial index of wake
    /// targets instead, a lookup in the table per row (17 times the CPU at 100,000 targets).
    static func topWakeups(limit: Int) -> SQLiteSQL {
        .topWakeups(limit: limit, from: "push_targets INDEXED BY push_targets_due")
    }

    /// From the partial index that holds only the failing targets: no row is read.
    func backingOff() throws -> [StatsReport.BackingOff] {
        try storeFaults {
            try connection.rows(.backingOff) { StatsReport.BackingOff(stored: $0) }.compactMap { $0 }
        }
    }

    /// The lifetime totals are kept per app and kind as runs are recorded, so pruning the history
    /// never lowers them (SPEC 7).
    func runTotals(since: Int64?) throws -> StatsReport.RunTotals {
        try storeFaults {
            var totals = StatsReport.RunTotals()
            var kinds: [StatsReport.PushTotals]
            if let since {
                try connection.firstRow(
                    "SELECT count(*), coalesce(sum(expired), 0) FROM sweep_runs WHERE started_at >= \(bind: since)"
                ) { row in
                    totals.runs = row.int(0)
                    totals.expired = row.int(1)
                }
                // The default app's: a range of the table ordered by the runs' start, no join, read
                // once per kind: a week of rows costs less scanned twice than sorted by kind for a
                // GROUP BY.
                kinds = try PushKind.all.compactMap { kind in
                    try connection.firstRow(
                        """
                        SELECT count(*), coalesce(sum(sent), 0), coalesce(sum(failed), 0), coalesce(sum(removed), 0)
                        FROM sweep_run_kinds WHERE started_at >= \(bind: since) AND push_kind = \(bind: kind.name) \
                        AND app = \(raw: AppName.defaultApp.sqlLiteral)
                        """
                    ) { row in
                        row.int(0) == 0
                            ? nil
                            : StatsReport.PushTotals(kind: kind, sent: row.int(1), failed: row.int(2), removed: row.int(3))
                    } ?? nil
                }
                // Every further app's, from their own partial index: nothing to read with one app.
                kinds += try connection.rows(
                    """
                    SELECT push_kind, sum(sent), sum(failed), sum(removed), app FROM sweep_run_kinds
                    WHERE app <> \(raw: AppName.defaultApp.sqlLiteral) AND started_at >= \(bind: since) GROUP BY app, push_kind
                    """
                ) { StatsReport.PushTotals(stored: $0) }.compactMap { $0 }
            } else {
                try connection.firstRow(.lifetimeRuns) { row in
                    totals.runs = row.int(0)
                    totals.expired = row.int(1)
                }
                kinds = try connection.rows(.lifetimeKindTotals) { StatsReport.PushTotals(stored: $0) }.compactMap { $0 }
            }
            return StatsReport.RunTotals.assembled(totals, kinds: kinds)
        }
    }

    /// The run recorded last: by its id, the order of recording, so a clock stepped back cannot
    /// hide the newest run behind an older one's later start time.
    func lastRun() throws -> RecordedRun? {
        try storeFaults {
            try connection.firstRow(.lastRun) { RecordedRun(stored: $0) }
        }
    }

    func lastRunPerHost(since: Int64?, failingKinds: [String]) throws -> [HostRun] {
        try storeFaults {
            // The last run of each host by the order runs were recorded (its largest id), as `lastRun`.
            try connection.rows(
                """
                SELECT host, started_at, duration_ms, \(Self.failed(failingKinds))
                FROM sweep_runs
                WHERE id IN (SELECT max(id) FROM sweep_runs WHERE started_at >= \(bind: since ?? Int64.min) GROUP BY host)
                """
            ) { row in
                HostRun(host: row.text(0) ?? "", startedAt: row.int(1), durationMilliseconds: row.int(2), failed: row.int(3) != 0)
            }
        }
    }

    func lastRunEnd(failingKinds: [String]) throws -> RunEnd? {
        try storeFaults {
            try connection.firstRow(
                "SELECT started_at + duration_ms, \(Self.failed(failingKinds)) FROM sweep_runs ORDER BY id DESC LIMIT 1"
            ) { row in RunEnd(finishedAt: row.int(0), failed: row.int(1) != 0) }
        }
    }

    /// Whether the run (a row of sweep_runs) had a fault of one of `kinds`: an `IN` list of binds,
    /// `('')` when there is none (SQLite has no arrays to bind).
    private static func failed(_ kinds: [String]) -> SQLiteSQL {
        let list: SQLiteSQL = kinds.isEmpty ? "''" : "\(binds: kinds.map { .text($0) })"
        return "EXISTS (SELECT 1 FROM sweep_faults f WHERE f.run_id = sweep_runs.id AND f.kind IN (\(list)))"
    }

    /// sweep_faults holds at most one per scope and kind in a run; the lifetime totals are kept
    /// by a trigger.
    func faults(since: Int64?) throws -> [StatsReport.FaultTotals] {
        try storeFaults {
            let read = { (row: Row) in StatsReport.FaultTotals(stored: row) }
            guard let since else {
                return try connection.rows(.lifetimeFaults, read).compactMap { $0 }
            }
            return try connection.rows(
                """
                SELECT f.environment, f.push_kind, f.kind, f.reason, count(*), sum(f.pushes), max(r.started_at), f.app
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
                return try connection.rows(.lifetimeWithheld) { WithheldWakes(stored: $0) }.compactMap { $0 }
            }
            return try connection.rows(
                """
                SELECT \(raw: WithheldWakes.storedColumns), sum(min(max(count, 0), 1125899906842624)) FROM sweep_run_withheld
                WHERE started_at >= \(bind: since) GROUP BY 1, 2, 3, 4
                """
            ) { WithheldWakes(stored: $0) }.compactMap { $0 }
        }
    }

    func lifetimeFailureReasons() throws -> [StatsReport.ReasonCount] {
        try storeFaults {
            try connection.rows(.lifetimeFailureReasons) { StatsReport.ReasonCount(stored: $0) }.compactMap { $0 }
        }
    }

    func reasons(since: Int64) throws -> [RunReason] {
        try storeFaults {
            try connection.rows(
                """
                SELECT s.kind, s.push_kind, s.reason, sum(s.count) FROM sweep_runs r JOIN sweep_reasons s ON s.run_id = r.id
                WHERE r.started_at >= \(bind: since) GROUP BY 1, 2, 3
                """
            ) { RunReason(stored: $0) }.compactMap { $0 }
        }
    }

    func runBuckets(since: Int64, width: Int64) throws -> [StatsReport.SweepBucket] {
        try storeFaults {
            try connection.rows(
                """
                SELECT started_at / \(bind: width), push_kind, count(*), max(active), sum(sent), sum(failed), app
                FROM sweep_run_kinds WHERE started_at >= \(bind: since) GROUP BY 1, 2, 7
                """
            ) { StatsReport.SweepBucket(stored: $0, width: width) }.compactMap { $0 }
        }
    }

    func deliveryWindows(sinceHour: Int64) throws -> [DeliveryReport.Window] {
        try storeFaults {
            let buckets = (0..<AckDelayBuckets.count).map { "sum(d\($0))" }.joined(separator: ", ")
            return try connection.rows(
                """
                SELECT activity_type, push_kind, sum(delivered), sum(acked), sum(registrations), sum(delay_sum_ms),
                       \(raw: buckets), app
                FROM delivery_hours WHERE hour >= \(bind: sinceHour) GROUP BY app, push_kind, activity_type
                """
            ) { DeliveryReport.Window(stored: $0) }.compactMap { $0 }
        }
    }

    func deliveryHours(sinceHour: Int64) throws -> [DeliveryHourFigures] {
        try storeFaults {
            let buckets = (0..<AckDelayBuckets.count).map { "sum(d\($0))" }.joined(separator: ", ")
            return try connection.rows(
                """
                SELECT hour, sum(delivered), sum(acked), \(raw: buckets), app FROM delivery_hours
                WHERE hour >= \(bind: sinceHour) AND \(raw: PushKind.wake.sqlIs()) GROUP BY hour, app
                """
            ) { DeliveryHourFigures(stored: $0) }
        }
    }

    func acks(sinceHour: Int64?) throws -> [AckOutcomeCount] {
        try storeFaults {
            guard let sinceHour else {
                return try connection.rows(.lifetimeAcks) { AckOutcomeCount(stored: $0) }.compactMap { $0 }
            }
            return try connection.rows(
                "SELECT outcome, sum(count), app FROM ack_hours WHERE hour >= \(bind: sinceHour) GROUP BY app, outcome"
            ) { AckOutcomeCount(stored: $0) }.compactMap { $0 }
        }
    }

    func ackDelayTotals() throws -> [AckDelayTotals] {
        try storeFaults {
            let buckets = try connection.rows(.lifetimeAckDelayBuckets) {
                (bucket: $0.int(0), count: $0.int(1), app: AppName(trusted: $0.text(2) ?? ""))
            }
            let sums = try connection.rows(.lifetimeAckDelaySums) {
                (app: AppName(trusted: $0.text(0) ?? ""), sumMilliseconds: $0.int(1))
            }
            return AckDelayTotals.assembled(buckets: buckets, sums: sums)
        }
    }

    // MARK: - One device

    func tokens(withPrefix prefix: String, limit: Int) throws -> [RegistrationKey] {
        try storeFaults {
            let matches: SQLiteSQL = "\(SQLiteSQL.prefixMatches(prefix)) ORDER BY 1, 2 LIMIT \(bind: Int64(limit))"
            return try connection.statement(matches.text).rows(matches.binds) { (row) throws(StoredValueError) in
                RegistrationKey(
                    app: try StoredValue.app(row.text(1)),
                    token: try StoredValue.token(row.text(0), column: "registration_token"))
            }
        }
    }

    func tokenCount(withPrefix prefix: String) throws -> Int {
        try storeFaults {
            Int(try connection.scalarInt("SELECT count(*) FROM (\(SQLiteSQL.prefixMatches(prefix)))") ?? 0)
        }
    }
}
