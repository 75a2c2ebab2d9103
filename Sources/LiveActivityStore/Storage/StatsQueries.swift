import LiveActivityDomain
import LiveActivityFigures

/// The reads behind `stats` (SPEC section 7) and `GET /wakeup/metrics`, without reading the
/// registrations themselves, so they stay fast on a table of a million rows: trigger-kept counters
/// per group, range counts on the registered_at index, a top-N and the rows backing off from
/// partial indexes, and the run history.
extension StatsReport {
    /// Reads the report from `connection` as of `now` (ms).
    static func gather(_ connection: SQLiteConnection, now: Int64) throws -> StatsReport {
        var report = StatsReport()
        report.generatedAt = now
        report.byTypeAndEnvironment = try groups(connection)
        report.active = report.byTypeAndEnvironment.reduce(0) { $0 + $1.count }
        // Wakeups from the partial index of pushed registrations (covering: no row is read).
        report.activeWakeups =
            try connection.statement("SELECT coalesce(sum(wakeup_count), 0) FROM registrations WHERE wakeup_count > 0")
            .scalarInt() ?? 0

        // Ages from range counts on the registered_at index: rows newer than each bound. Index
        // entries are cheap to count (30 ms for a million), unlike the rows themselves.
        let minute: Int64 = 60_000
        let bounds = [now - 5 * minute, now - 30 * minute, now - 120 * minute, now - 480 * minute]
        let newer = try connection.statement("SELECT count(*) FROM registrations WHERE registered_at > ?")
        var newerThan: [Int64] = []
        for bound in bounds { newerThan.append(try newer.scalarInt([.integer(bound)]) ?? 0) }
        let ages = [newerThan[0]] + (1..<4).map { newerThan[$0] - newerThan[$0 - 1] } + [report.active - newerThan[3]]
        report.byAge = zip(ageLabels, ages).map { ($0, $1) }
        report.oldestRegisteredAt = try connection.statement("SELECT min(registered_at) FROM registrations").scalarInt()

        // The partial index on wakeups holds only pushed registrations, in order.
        report.topWakeups = try connection.statement(
            """
            SELECT substr(push_token, 1, 8), wakeup_count FROM registrations WHERE wakeup_count > 0
            ORDER BY wakeup_count DESC, push_token LIMIT 5
            """
        ).rows { row in ((row.text(0) ?? "") + "…", row.int(1)) }

        let history = RunHistory(connection)
        report.lastDay = try history.totals(since: now - 86_400_000)
        report.lastWeek = try history.totals(since: now - 7 * 86_400_000)
        report.lifetimeSent = try history.lifetimeTotals().sent
        report.backingOff = try backingOff(connection)
        report.recentFaults = try history.faults(since: now - 86_400_000)
        let last = try history.lastRun()
        report.lastRunAt = last?.startedAt
        report.lastRunDurationMilliseconds = last?.durationMilliseconds
        report.lastRunOutcome = last?.outcome
        report.delivery = try DeliveryReport.gather(connection, now: now)
        report.day = try Day.gather(connection, now: now)
        return report
    }

    /// Registrations waiting after failures, per environment (every environment listed), from the
    /// partial index that holds only them (schema step 5 → 6): no row is read.
    static func backingOff(_ connection: SQLiteConnection) throws(SQLiteError) -> [(environment: String, count: Int64)] {
        let counts = try connection.statement(
            "SELECT environment, count(*) FROM registrations WHERE consecutive_failures > 0 GROUP BY environment"
        ).rows { row in (row.text(0) ?? "", row.int(1)) }
        let known = APNsEnvironment.allCases.map { name in (name.rawValue, counts.first { $0.0 == name.rawValue }?.1 ?? 0) }
        return known + counts.filter { count in !APNsEnvironment.allCases.contains { $0.rawValue == count.0 } }
    }

    /// The groups holding registrations, from the trigger-kept counters (schema step 2 → 3).
    static func groups(_ connection: SQLiteConnection) throws(SQLiteError) -> [Group] {
        try connection.statement(
            """
            SELECT activity_type, environment, n FROM registration_groups
            WHERE n > 0 ORDER BY activity_type, environment
            """
        ).rows { row in Group(activityType: row.text(0) ?? "", environment: row.text(1) ?? "", count: row.int(2)) }
    }
}

extension MetricsSnapshot {
    /// Reads the snapshot from `connection`: a scrape never scans the registrations.
    static func gather(_ connection: SQLiteConnection) throws -> MetricsSnapshot {
        let history = RunHistory(connection)
        var snapshot = MetricsSnapshot(
            groups: try StatsReport.groups(connection), totals: try history.lifetimeTotals(),
            failureReasons: try history.failureReasons(), lastRun: try history.lastRun(),
            backingOff: try StatsReport.backingOff(connection), faults: try history.lifetimeFaults())
        snapshot.acks = try DeliveryReport.lifetimeAcks(connection)
        (snapshot.ackDelayBuckets, snapshot.ackDelaySumMilliseconds) = try ackDelays(connection)
        return snapshot
    }
}

extension RegistrationStore {
    /// The figures of `GET /wakeup/metrics`.
    public func metricsSnapshot() throws -> MetricsSnapshot { try MetricsSnapshot.gather(connection) }

    /// The operator's report as of `now` (ms).
    public func statsReport(now: Int64) throws -> StatsReport { try StatsReport.gather(connection, now: now) }
}

extension SweepStore {
    /// The operator's report as of `now` (ms), for `liveactivity-sweep stats`.
    public func statsReport(now: Int64) throws -> StatsReport { try StatsReport.gather(connection, now: now) }
}
