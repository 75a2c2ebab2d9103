import LiveActivityDomain
import LiveActivityFigures
import LiveActivityStore
import SQLiteClient

/// The figures' reads (SPEC 7) on SQLite, without reading the registrations themselves: the
/// trigger-kept group counters, range counts on the registered_at index (index entries are cheap
/// to count: 30 ms for a million), the partial indexes of pushed and failing rows, the run
/// history on its start-time index and the hourly figures by their primary key.
extension SQLiteStoreConnection: FigureQueries {
    func registration(_ token: PushToken) throws -> Registration? {
        try storeFaults {
            try connection.statement("SELECT \(Self.registrationColumns) FROM registrations WHERE push_token = ?")
                .firstRow([.text(token.hex)], refusing: { (row) throws(StoredValueError) in try row.registration() })
        }
    }

    func groups() throws -> [StatsReport.Group] {
        try storeFaults {
            try connection.statement(
                "SELECT activity_type, environment, n FROM registration_groups WHERE n > 0 ORDER BY activity_type, environment"
            ).rows { row in StatsReport.Group(activityType: row.text(0) ?? "", environment: row.text(1) ?? "", count: row.int(2))
            }
        }
    }

    /// From the partial index of pushed registrations (covering: no row is read).
    func wakeupTotal() throws -> Int64 {
        try storeFaults {
            try connection.statement("SELECT coalesce(sum(wakeup_count), 0) FROM registrations WHERE wakeup_count > 0")
                .scalarInt() ?? 0
        }
    }

    func registeredAfter(_ bounds: [Int64]) throws -> [Int64] {
        try storeFaults {
            let newer = try connection.statement("SELECT count(*) FROM registrations WHERE registered_at > ?")
            return try bounds.map { try newer.scalarInt([.integer($0)]) ?? 0 }
        }
    }

    func oldestRegisteredAt() throws -> Int64? {
        try storeFaults { try connection.statement("SELECT min(registered_at) FROM registrations").scalarInt() }
    }

    /// The partial index on wakeups holds only pushed registrations, in order.
    func topWakeups(limit: Int) throws -> [(prefix: String, count: Int64)] {
        try storeFaults {
            try connection.statement(
                """
                SELECT substr(push_token, 1, 8), wakeup_count FROM registrations WHERE wakeup_count > 0
                ORDER BY wakeup_count DESC, push_token LIMIT ?
                """
            ).rows([.integer(Int64(limit))]) { row in (row.text(0) ?? "", row.int(1)) }
        }
    }

    /// From the partial index that holds only the failing rows (schema step 5 → 6): no row is read.
    func backingOff() throws -> [(environment: String, count: Int64)] {
        try storeFaults {
            try connection.statement(
                "SELECT environment, count(*) FROM registrations WHERE consecutive_failures > 0 GROUP BY environment"
            ).rows { row in (row.text(0) ?? "", row.int(1)) }
        }
    }

    /// The lifetime totals are kept by triggers as runs are recorded (schema step 4 → 5), so
    /// pruning the history never lowers them (SPEC 7).
    func runTotals(since: Int64?) throws -> StatsReport.RunTotals {
        try storeFaults {
            let read = { (row: Row) in
                StatsReport.RunTotals(
                    runs: row.int(0), sent: row.int(1), failed: row.int(2), removed: row.int(3), expired: row.int(4))
            }
            guard let since else {
                return try connection.statement("SELECT runs, sent, failed, removed, expired FROM sweep_totals WHERE id = 1")
                    .firstRow([], read) ?? StatsReport.RunTotals()
            }
            return try connection.statement(
                """
                SELECT count(*), coalesce(sum(sent), 0), coalesce(sum(failed), 0), coalesce(sum(removed), 0),
                       coalesce(sum(expired), 0)
                FROM sweep_runs WHERE started_at >= ?
                """
            ).firstRow([.integer(since)], read) ?? StatsReport.RunTotals()
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
                ORDER BY host
                """
            ).rows([.integer(since ?? Int64.min)] + failingKinds.map { .text($0) }) { row in
                HostRun(host: row.text(0) ?? "", startedAt: row.int(1), durationMilliseconds: row.int(2), failed: row.int(3) != 0)
            }
        }
    }

    func lastRunEnd(failingKinds: [String]) throws -> (finishedAt: Int64, failed: Bool)? {
        try storeFaults {
            let placeholders = failingKinds.indices.map { "?\($0 + 1)" }.joined(separator: ", ")
            return try connection.statement(
                """
                SELECT started_at + duration_ms,
                       EXISTS (SELECT 1 FROM sweep_faults f WHERE f.run_id = sweep_runs.id AND f.kind IN (\(placeholders.isEmpty ? "''" : placeholders)))
                FROM sweep_runs ORDER BY id DESC LIMIT 1
                """
            ).firstRow(failingKinds.map { .text($0) }) { row in (row.int(0), row.int(1) != 0) }
        }
    }

    /// sweep_faults holds at most one per environment and kind in a run; the lifetime totals are
    /// kept by a trigger (schema step 5 → 6).
    func faults(since: Int64?) throws -> [StatsReport.FaultTotals] {
        try storeFaults {
            let read = { (row: Row) in
                StatsReport.FaultTotals(
                    environment: row.text(0) ?? "", kind: row.text(1) ?? "", reason: row.text(2) ?? "", runs: row.int(3),
                    pushes: row.int(4), lastAt: row.int(5))
            }
            guard let since else {
                return try connection.statement(
                    "SELECT environment, kind, reason, runs, pushes, last_at FROM sweep_fault_totals ORDER BY 1, 2, 3"
                ).rows([], read)
            }
            return try connection.statement(
                """
                SELECT f.environment, f.kind, f.reason, count(*), sum(f.pushes), max(r.started_at)
                FROM sweep_faults f JOIN sweep_runs r ON r.id = f.run_id
                WHERE r.started_at >= ? GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
                """
            ).rows([.integer(since)], read)
        }
    }

    func lifetimeFailureReasons() throws -> [(reason: String, count: Int64)] {
        try storeFaults {
            try connection.statement("SELECT reason, count FROM sweep_reason_totals WHERE kind = ? ORDER BY reason")
                .rows([.text("failed")]) { row in (row.text(0) ?? "", row.int(1)) }
        }
    }

    func reasons(since: Int64) throws -> [(kind: String, reason: String, count: Int64)] {
        try storeFaults {
            try connection.statement(
                """
                SELECT s.kind, s.reason, sum(s.count) FROM sweep_runs r JOIN sweep_reasons s ON s.run_id = r.id
                WHERE r.started_at >= ? GROUP BY 1, 2 ORDER BY 3 DESC, 2
                """
            ).rows([.integer(since)]) { row in (row.text(0) ?? "", row.text(1) ?? "", row.int(2)) }
        }
    }

    func runBuckets(since: Int64, width: Int64) throws -> [StatsReport.SweepBucket] {
        try storeFaults {
            try connection.statement(
                """
                SELECT started_at / ?1, count(*), max(active), sum(sent), sum(failed) FROM sweep_runs
                WHERE started_at >= ?2 GROUP BY 1 ORDER BY 1
                """
            ).rows([.integer(width), .integer(since)]) { row in
                StatsReport.SweepBucket(
                    start: row.int(0) * width, runs: row.int(1), active: row.int(2), sent: row.int(3), failed: row.int(4))
            }
        }
    }

    func deliveryWindows(sinceHour: Int64) throws -> [DeliveryReport.Window] {
        try storeFaults {
            let buckets = (0..<AckDelayBuckets.count).map { "sum(d\($0))" }.joined(separator: ", ")
            return try connection.statement(
                """
                SELECT activity_type, sum(delivered), sum(acked), sum(registrations), sum(delay_sum_ms), \(buckets)
                FROM delivery_hours WHERE hour >= ? GROUP BY activity_type ORDER BY activity_type
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
            let buckets = (0..<AckDelayBuckets.count).map { "sum(d\($0))" }.joined(separator: ", ")
            return try connection.statement(
                "SELECT hour, sum(delivered), sum(acked), \(buckets) FROM delivery_hours WHERE hour >= ? GROUP BY hour ORDER BY hour"
            ).rows([.integer(sinceHour)]) { row in
                (row.int(0), row.int(1), row.int(2), (0..<AckDelayBuckets.count).map { row.int(Int32($0 + 3)) })
            }
        }
    }

    func acks(sinceHour: Int64?) throws -> [(outcome: String, count: Int64)] {
        try storeFaults {
            guard let sinceHour else {
                return try connection.statement("SELECT outcome, count FROM ack_totals").rows { row in
                    (row.text(0) ?? "", row.int(1))
                }
            }
            return try connection.statement("SELECT outcome, sum(count) FROM ack_hours WHERE hour >= ? GROUP BY outcome")
                .rows([.integer(sinceHour)]) { row in (row.text(0) ?? "", row.int(1)) }
        }
    }

    func ackDelayTotals() throws -> (buckets: [(bucket: Int64, count: Int64)], sumMilliseconds: Int64) {
        try storeFaults {
            let buckets = try connection.statement("SELECT bucket, count FROM ack_delay_totals").rows { row in
                (row.int(0), row.int(1))
            }
            let sum = try connection.statement("SELECT delay_sum_ms FROM ack_totals WHERE outcome = 'matched'").scalarInt() ?? 0
            return (buckets, sum)
        }
    }

    // MARK: - One device

    /// A range on the primary key: `push_token >= prefix AND push_token < prefix || 'g'` (tokens
    /// are lowercase hex, and 'g' sorts after every hex digit).
    func tokens(withPrefix prefix: String, limit: Int) throws -> [String] {
        try storeFaults {
            try connection.statement(
                "SELECT push_token FROM registrations WHERE push_token >= ?1 AND push_token < ?2 ORDER BY push_token LIMIT ?3"
            ).rows([.text(prefix), .text(prefix + "g"), .integer(Int64(limit))]) { $0.text(0) ?? "" }
        }
    }

    func tokenCount(withPrefix prefix: String) throws -> Int {
        try storeFaults {
            Int(
                try connection.statement("SELECT count(*) FROM registrations WHERE push_token >= ?1 AND push_token < ?2")
                    .scalarInt([.text(prefix), .text(prefix + "g")]) ?? 0)
        }
    }

    func registrationAndAttempts(_ token: PushToken) throws -> (Registration, [PushAttempt])? {
        try storeFaults {
            try connection.statement("SELECT \(Self.registrationColumns), attempts FROM registrations WHERE push_token = ?")
                .firstRow(
                    [.text(token.hex)],
                    refusing: { (row) throws(StoredValueError) in
                        (try row.registration(), AttemptRing.decode(row.blob(11) ?? [], token: token))
                    })
        }
    }
}
