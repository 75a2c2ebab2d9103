import LiveActivityDomain
import LiveActivityFigures
import LiveActivityStore
import SQLiteClient

/// The figures' reads (SPEC 7) on SQLite, without reading the targets themselves: the
/// trigger-kept group counters, range counts on the registered_at index (index entries are cheap
/// to count: 30 ms for a million), the partial indexes of pushed and failing targets, the run
/// history on its start-time index and the hourly figures by their primary key.
extension SQLiteStoreConnection: FigureQueries {
    func registration(_ key: RegistrationKey, attempts: Bool) throws -> Registration? {
        try storeFaults {
            let rows = try connection.statement(
                """
                SELECT \(TargetColumns.stored)\(attempts ? ", attempts" : "") FROM push_targets
                WHERE registration_token = ? AND app = ?
                """
            ).rows([.text(key.token.hex), .text(key.app.rawValue)]) { (row) throws(StoredValueError) in
                try StoredTargetRow(stored: row, attempts: attempts)
            }
            return try Registration(stored: rows)
        }
    }

    func groups() throws -> [StatsReport.Group] {
        try storeFaults {
            try connection.statement("SELECT \(StatsReport.Group.storedColumns) FROM target_groups WHERE n > 0")
                .rows { StatsReport.Group(stored: $0) }.compactMap { $0 }
        }
    }

    /// From the counters: the sum over the targets' index cost 14 ms at 100,000.
    func wakeupTotal() throws -> Int64 {
        try storeFaults {
            try connection.statement("SELECT coalesce(sum(wakeups), 0) FROM target_groups WHERE push_kind = 'wake'")
                .scalarInt() ?? 0
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
            let oldest = try connection.statement("SELECT min(registered_at) FROM push_targets WHERE push_kind = 'wake'")
                .scalarInt()
            let newest = try connection.statement("SELECT max(registered_at) FROM push_targets WHERE push_kind = 'wake'")
                .scalarInt()
            guard let oldest, let newest else { return bounds.map { _ in 0 } }
            let newer = try connection.statement(
                "SELECT count(*) FROM push_targets WHERE push_kind = 'wake' AND registered_at > ?")
            let olderSubtracted = try connection.statement(
                """
                SELECT (SELECT coalesce(sum(n), 0) FROM target_groups WHERE push_kind = 'wake')
                     - (SELECT count(*) FROM push_targets WHERE push_kind = 'wake' AND registered_at <= ?)
                """)
            return try bounds.map { bound in
                let counted = bound.subtractingSaturated(oldest) < newest.subtractingSaturated(bound) ? olderSubtracted : newer
                return max(0, try counted.scalarInt([.integer(bound)]) ?? 0)
            }
        }
    }

    func oldestRegisteredAt() throws -> Int64? {
        try storeFaults {
            try connection.statement("SELECT min(registered_at) FROM push_targets WHERE push_kind = 'wake'").scalarInt()
        }
    }

    /// The partial index on push counts holds only pushed targets, by kind and count.
    func topWakeups(limit: Int) throws -> [StatsReport.TopCount] {
        try storeFaults {
            try connection.statement(
                """
                SELECT substr(registration_token, 1, 8), push_count FROM push_targets WHERE push_kind = 'wake' AND push_count > 0
                ORDER BY push_count DESC, registration_token LIMIT ?
                """
            ).rows([.integer(Int64(limit))]) { row in StatsReport.TopCount(token: row.text(0) ?? "", count: row.int(1)) }
        }
    }

    /// From the partial index that holds only the failing targets: no row is read.
    func backingOff() throws -> [StatsReport.BackingOff] {
        try storeFaults {
            try connection.statement(
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
            var kinds: [StatsReport.PushTotals]
            if let since {
                try connection.statement("SELECT count(*), coalesce(sum(expired), 0) FROM sweep_runs WHERE started_at >= ?")
                    .firstRow([.integer(since)]) { row in
                        totals.runs = row.int(0)
                        totals.expired = row.int(1)
                    }
                // The default app's: a range of the table ordered by the runs' start, no join, read
                // once per kind: a week of rows costs less scanned twice than sorted by kind for a
                // GROUP BY.
                let kindSums = try connection.statement(
                    """
                    SELECT count(*), coalesce(sum(sent), 0), coalesce(sum(failed), 0), coalesce(sum(removed), 0)
                    FROM sweep_run_kinds WHERE started_at >= ? AND push_kind = ? AND app = 'default'
                    """)
                kinds = try PushKind.all.compactMap { kind in
                    try kindSums.firstRow([.integer(since), .text(kind.name)]) { row in
                        row.int(0) == 0
                            ? nil
                            : StatsReport.PushTotals(kind: kind.name, sent: row.int(1), failed: row.int(2), removed: row.int(3))
                    } ?? nil
                }
                // Every further app's, from their own partial index: nothing to read with one app.
                kinds += try connection.statement(
                    """
                    SELECT push_kind, sum(sent), sum(failed), sum(removed), app FROM sweep_run_kinds
                    WHERE app <> 'default' AND started_at >= ? GROUP BY app, push_kind
                    """
                ).rows([.integer(since)]) { row in
                    StatsReport.PushTotals(
                        kind: row.text(0) ?? "", sent: row.int(1), failed: row.int(2), removed: row.int(3), app: row.text(4) ?? ""
                    )
                }
            } else {
                try connection.statement("SELECT runs, expired FROM sweep_totals WHERE id = 1").firstRow { row in
                    totals.runs = row.int(0)
                    totals.expired = row.int(1)
                }
                kinds = try connection.statement("SELECT push_kind, sent, failed, removed, app FROM sweep_kind_totals").rows {
                    StatsReport.PushTotals(
                        kind: $0.text(0) ?? "", sent: $0.int(1), failed: $0.int(2), removed: $0.int(3), app: $0.text(4) ?? "")
                }
            }
            return StatsReport.RunTotals.assembled(totals, kinds: kinds)
        }
    }

    /// The run recorded last: by its id, the order of recording, so a clock stepped back cannot
    /// hide the newest run behind an older one's later start time.
    func lastRun() throws -> RecordedRun? {
        try storeFaults {
            try connection.statement("SELECT started_at, duration_ms, outcome FROM sweep_runs ORDER BY id DESC LIMIT 1")
                .firstRow { row in RecordedRun(startedAt: row.int(0), durationMilliseconds: row.int(1), outcome: row.text(2)) }
        }
    }

    func lastRunPerHost(since: Int64?, failingKinds: [String]) throws -> [HostRun] {
        try storeFaults {
            let placeholders = failingKinds.indices.map { "?\($0 + 2)" }.joined(separator: ", ")
            // The last run of each host by the order runs were recorded (its largest id), as `lastRun`.
            return try connection.statement(
                """
                SELECT host, started_at, duration_ms,
                       EXISTS (SELECT 1 FROM sweep_faults f WHERE f.run_id = sweep_runs.id AND f.kind IN (\(placeholders.isEmpty ? "''" : placeholders)))
                FROM sweep_runs WHERE id IN (SELECT max(id) FROM sweep_runs WHERE started_at >= ?1 GROUP BY host)
                """
            ).rows([.integer(since ?? Int64.min)] + failingKinds.map { .text($0) }) { row in
                HostRun(host: row.text(0) ?? "", startedAt: row.int(1), durationMilliseconds: row.int(2), failed: row.int(3) != 0)
            }
        }
    }

    func lastRunEnd(failingKinds: [String]) throws -> RunEnd? {
        try storeFaults {
            let placeholders = failingKinds.indices.map { "?\($0 + 1)" }.joined(separator: ", ")
            return try connection.statement(
                """
                SELECT started_at + duration_ms,
                       EXISTS (SELECT 1 FROM sweep_faults f WHERE f.run_id = sweep_runs.id AND f.kind IN (\(placeholders.isEmpty ? "''" : placeholders)))
                FROM sweep_runs ORDER BY id DESC LIMIT 1
                """
            ).firstRow(failingKinds.map { .text($0) }) { row in RunEnd(finishedAt: row.int(0), failed: row.int(1) != 0) }
        }
    }

    /// sweep_faults holds at most one per scope and kind in a run; the lifetime totals are kept
    /// by a trigger.
    func faults(since: Int64?) throws -> [StatsReport.FaultTotals] {
        try storeFaults {
            let read = { (row: Row) in
                StatsReport.FaultTotals(
                    environment: row.text(0) ?? "", pushKind: row.text(1) ?? "", kind: row.text(2) ?? "",
                    reason: row.text(3) ?? "", runs: row.int(4), pushes: row.int(5), lastAt: row.int(6), app: row.text(7) ?? "")
            }
            guard let since else {
                return try connection.statement(
                    """
                    SELECT environment, push_kind, kind, reason, runs, pushes, last_at, app FROM sweep_fault_totals
                    """
                ).rows([], read)
            }
            return try connection.statement(
                """
                SELECT f.environment, f.push_kind, f.kind, f.reason, count(*), sum(f.pushes), max(r.started_at), f.app
                FROM sweep_faults f JOIN sweep_runs r ON r.id = f.run_id
                WHERE r.started_at >= ? GROUP BY f.app, 1, 2, 3, 4
                """
            ).rows([.integer(since)], read)
        }
    }

    /// Summed in SQL with each stored count held to 2^50 (values read back are input: a planted
    /// one is a large figure, never an overflow of the sum).
    func withheld(since: Int64?) throws -> [WithheldWakes] {
        try storeFaults {
            guard let since else {
                return try connection.statement(
                    "SELECT \(WithheldWakes.storedColumns), count FROM sweep_withheld_totals"
                ).rows([]) { WithheldWakes(stored: $0) }.compactMap { $0 }
            }
            return try connection.statement(
                """
                SELECT \(WithheldWakes.storedColumns), sum(min(max(count, 0), 1125899906842624)) FROM sweep_run_withheld
                WHERE started_at >= ? GROUP BY 1, 2, 3, 4
                """
            ).rows([.integer(since)]) { WithheldWakes(stored: $0) }.compactMap { $0 }
        }
    }

    func lifetimeFailureReasons() throws -> [StatsReport.ReasonCount] {
        try storeFaults {
            try connection.statement(
                "SELECT reason, count, push_kind FROM sweep_reason_totals WHERE kind = 'failed'"
            ).rows { StatsReport.ReasonCount(stored: $0) }.compactMap { $0 }
        }
    }

    func reasons(since: Int64) throws -> [RunReason] {
        try storeFaults {
            try connection.statement(
                """
                SELECT s.kind, s.push_kind, s.reason, sum(s.count) FROM sweep_runs r JOIN sweep_reasons s ON s.run_id = r.id
                WHERE r.started_at >= ? GROUP BY 1, 2, 3
                """
            ).rows([.integer(since)]) { RunReason(stored: $0) }.compactMap { $0 }
        }
    }

    func runBuckets(since: Int64, width: Int64) throws -> [StatsReport.SweepBucket] {
        try storeFaults {
            try connection.statement(
                """
                SELECT started_at / ?1, push_kind, count(*), max(active), sum(sent), sum(failed), app
                FROM sweep_run_kinds WHERE started_at >= ?2 GROUP BY 1, 2, 7
                """
            ).rows([.integer(width), .integer(since)]) { StatsReport.SweepBucket(stored: $0, width: width) }.compactMap { $0 }
        }
    }

    func deliveryWindows(sinceHour: Int64) throws -> [DeliveryReport.Window] {
        try storeFaults {
            let buckets = (0..<AckDelayBuckets.count).map { "sum(d\($0))" }.joined(separator: ", ")
            return try connection.statement(
                """
                SELECT activity_type, push_kind, sum(delivered), sum(acked), sum(registrations), sum(delay_sum_ms), \(buckets), app
                FROM delivery_hours WHERE hour >= ? GROUP BY app, push_kind, activity_type
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
            let buckets = (0..<AckDelayBuckets.count).map { "sum(d\($0))" }.joined(separator: ", ")
            return try connection.statement(
                """
                SELECT hour, sum(delivered), sum(acked), \(buckets), app FROM delivery_hours
                WHERE hour >= ? AND push_kind = 'wake' GROUP BY hour, app
                """
            ).rows([.integer(sinceHour)]) { DeliveryHourFigures(stored: $0) }
        }
    }

    func acks(sinceHour: Int64?) throws -> [AckOutcomeCount] {
        try storeFaults {
            guard let sinceHour else {
                return try connection.statement("SELECT outcome, count, app FROM ack_totals").rows([]) {
                    AckOutcomeCount(stored: $0)
                }.compactMap { $0 }
            }
            return try connection.statement(
                "SELECT outcome, sum(count), app FROM ack_hours WHERE hour >= ? GROUP BY app, outcome"
            ).rows([.integer(sinceHour)]) { AckOutcomeCount(stored: $0) }.compactMap { $0 }
        }
    }

    func ackDelayTotals() throws -> [AckDelayTotals] {
        try storeFaults {
            let buckets = try connection.statement("SELECT bucket, count, app FROM ack_delay_totals").rows([]) {
                (bucket: $0.int(0), count: $0.int(1), app: AppName(trusted: $0.text(2) ?? ""))
            }
            let sums = try connection.statement("SELECT app, delay_sum_ms FROM ack_totals WHERE outcome = 'matched'").rows([]) {
                (app: AppName(trusted: $0.text(0) ?? ""), sumMilliseconds: $0.int(1))
            }
            return AckDelayTotals.assembled(buckets: buckets, sums: sums)
        }
    }

    // MARK: - One device

    /// Ranges on the primary key and on the partial index of other kinds' own tokens: `token >=
    /// prefix AND token < prefix || 'g'` (tokens are lowercase hex, and 'g' sorts after every
    /// hex digit).
    private static let prefixMatches = """
        SELECT registration_token, app FROM push_targets
        WHERE registration_token >= ?1 AND registration_token < ?2 AND push_kind = 'wake'
        UNION SELECT registration_token, app FROM push_targets WHERE push_token >= ?1 AND push_token < ?2 AND push_kind <> 'wake'
        """

    func tokens(withPrefix prefix: String, limit: Int) throws -> [RegistrationKey] {
        try storeFaults {
            try connection.statement("\(Self.prefixMatches) ORDER BY 1, 2 LIMIT ?3")
                .rows([.text(prefix), .text(prefix + "g"), .integer(Int64(limit))]) { (row) throws(StoredValueError) in
                    RegistrationKey(
                        app: try StoredValue.app(row.text(1)),
                        token: try StoredValue.token(row.text(0), column: "registration_token"))
                }
        }
    }

    func tokenCount(withPrefix prefix: String) throws -> Int {
        try storeFaults {
            Int(
                try connection.statement("SELECT count(*) FROM (\(Self.prefixMatches))")
                    .scalarInt([.text(prefix), .text(prefix + "g")]) ?? 0)
        }
    }
}
