/// The operator's snapshot of SPEC section 7, gathered without reading the registrations
/// themselves, so it stays fast on a table of a million rows: trigger-kept counters per group,
/// range counts on the registered_at index, a top-N from a partial index, and range reads of the
/// run history.
public struct StatsReport: Sendable {
    public struct Group: Sendable, Equatable {
        public var activityType: String
        public var environment: String
        public var count: Int64
    }

    public struct RunTotals: Sendable, Equatable {
        public var runs: Int64 = 0
        public var sent: Int64 = 0
        public var failed: Int64 = 0
        public var removed: Int64 = 0
        public var expired: Int64 = 0
        /// failed / (sent + failed); 0 when nothing was attempted.
        public var errorRate: Double { sent + failed == 0 ? 0 : Double(failed) / Double(sent + failed) }
    }

    public var generatedAt: Int64 = 0
    public var active: Int64 = 0
    public var byTypeAndEnvironment: [Group] = []
    /// Counts by registration age: <5m, 5-30m, 30m-2h, 2-8h, and older (only with a longer expiry).
    public var byAge: [(label: String, count: Int64)] = []
    /// Wakeups delivered to the registrations still active.
    public var activeWakeups: Int64 = 0
    /// The most-pushed active registrations (token prefix, count).
    public var topWakeups: [(token: String, count: Int64)] = []
    public var oldestRegisteredAt: Int64?
    public var lastDay = RunTotals()
    public var lastWeek = RunTotals()
    /// Pushes delivered over the whole recorded run history.
    public var lifetimeSent: Int64 = 0
    public var lastRunAt: Int64?
    public var lastRunDurationMilliseconds: Int64?
    public var lastRunOutcome: String?

    public static let ageLabels = ["<5m", "5-30m", "30m-2h", "2-8h", ">8h"]
}

extension StatsReport {
    /// Reads the report from `connection` as of `now` (ms).
    public static func gather(_ connection: SQLiteConnection, now: Int64) throws -> StatsReport {
        var report = StatsReport()
        report.generatedAt = now
        let minute: Int64 = 60_000
        let bounds = [now - 5 * minute, now - 30 * minute, now - 120 * minute, now - 480 * minute]

        // Counts per group from the trigger-kept counters (schema step 2 → 3).
        let groups = try connection.statement(
            """
            SELECT activity_type, environment, n FROM registration_groups
            WHERE n > 0 ORDER BY activity_type, environment
            """)
        try groups.bind([])
        while try groups.step() {
            let count = groups.int(2)
            report.byTypeAndEnvironment.append(
                Group(activityType: groups.text(0) ?? "", environment: groups.text(1) ?? "", count: count))
            report.active += count
        }
        groups.reset()
        // Wakeups from the partial index of pushed registrations (covering: no row is read).
        report.activeWakeups =
            try connection.statement("SELECT coalesce(sum(wakeup_count), 0) FROM registrations WHERE wakeup_count > 0")
            .scalarInt() ?? 0

        // Ages from range counts on the registered_at index: rows newer than each bound. Index
        // entries are cheap to count (30 ms for a million), unlike the rows themselves.
        let newer = try connection.statement("SELECT count(*) FROM registrations WHERE registered_at > ?")
        var newerThan: [Int64] = []
        for bound in bounds { newerThan.append(try newer.scalarInt([.integer(bound)]) ?? 0) }
        let ages = [newerThan[0]] + (1..<4).map { newerThan[$0] - newerThan[$0 - 1] } + [report.active - newerThan[3]]
        report.byAge = zip(ageLabels, ages).map { ($0, $1) }
        report.oldestRegisteredAt = try connection.statement("SELECT min(registered_at) FROM registrations").scalarInt()

        // The partial index on wakeups holds only pushed registrations, in order.
        let top = try connection.statement(
            """
            SELECT substr(push_token, 1, 8), wakeup_count FROM registrations WHERE wakeup_count > 0
            ORDER BY wakeup_count DESC, push_token LIMIT 5
            """)
        try top.bind([])
        while try top.step() { report.topWakeups.append(((top.text(0) ?? "") + "…", top.int(1))) }
        top.reset()

        report.lastDay = try totals(connection, since: now - 86_400_000)
        report.lastWeek = try totals(connection, since: now - 7 * 86_400_000)
        report.lifetimeSent = try connection.statement("SELECT coalesce(sum(sent), 0) FROM sweep_runs").scalarInt() ?? 0

        let last = try connection.statement(
            "SELECT started_at, duration_ms, outcome FROM sweep_runs ORDER BY started_at DESC LIMIT 1")
        try last.bind([])
        if try last.step() {
            report.lastRunAt = last.int(0)
            report.lastRunDurationMilliseconds = last.int(1)
            report.lastRunOutcome = last.text(2)
        }
        last.reset()
        return report
    }

    static func totals(_ connection: SQLiteConnection, since: Int64) throws -> RunTotals {
        let statement = try connection.statement(
            """
            SELECT count(*), coalesce(sum(sent), 0), coalesce(sum(failed), 0), coalesce(sum(removed), 0),
                   coalesce(sum(expired), 0)
            FROM sweep_runs WHERE started_at >= ?
            """)
        try statement.bind([.integer(since)])
        defer { statement.reset() }
        guard try statement.step() else { return RunTotals() }
        return RunTotals(
            runs: statement.int(0), sent: statement.int(1), failed: statement.int(2), removed: statement.int(3),
            expired: statement.int(4))
    }
}
