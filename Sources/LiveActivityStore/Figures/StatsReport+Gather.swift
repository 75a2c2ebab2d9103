import LiveActivityDomain
import LiveActivityFigures

/// `stats` (SPEC 7) and the status page's figures from any engine's `FigureQueries`: counters,
/// index range counts and the run history, never a read of the registrations themselves, so they
/// stay fast on a table of a million rows.
extension StatsReport {
    /// The report as of `now` (ms).
    public static func gather(_ queries: any FigureQueries, now: Int64) throws -> StatsReport {
        var report = StatsReport()
        report.generatedAt = now
        report.byTypeAndEnvironment = try queries.groups()
        report.active = report.byTypeAndEnvironment.map(\.count).saturatedSum()
        report.activeWakeups = try queries.wakeupTotal()

        // Ages from range counts: rows newer than each bound.
        let minute: Int64 = 60_000
        let newerThan = try queries.registeredAfter([now - 5 * minute, now - 30 * minute, now - 120 * minute, now - 480 * minute])
        let ages =
            [newerThan[0]] + (1..<4).map { max(0, newerThan[$0].subtractingSaturated(newerThan[$0 - 1])) }
            + [max(0, report.active.subtractingSaturated(newerThan[3]))]
        report.byAge = zip(ageLabels, ages).map { ($0, $1) }
        report.oldestRegisteredAt = try queries.oldestRegisteredAt()
        report.topWakeups = try queries.topWakeups(limit: 5).map { ($0.prefix + "…", $0.count) }

        report.lastDay = try queries.runTotals(since: now - 86_400_000)
        report.lastWeek = try queries.runTotals(since: now - 7 * 86_400_000)
        report.lifetimeSent = try queries.runTotals(since: nil).sent
        report.backingOff = try backingOff(queries)
        report.recentFaults = try queries.faults(since: now - 86_400_000)
        let last = try queries.lastRun()
        report.lastRunAt = last?.startedAt
        report.lastRunDurationMilliseconds = last?.durationMilliseconds
        report.lastRunOutcome = last?.outcome
        report.delivery = try DeliveryReport.gather(queries, now: now)
        report.day = try Day.gather(queries, now: now)
        return report
    }

    /// Registrations waiting after failures, every environment listed (0 when none), then any
    /// environment this build does not know.
    static func backingOff(_ queries: any FigureQueries) throws -> [(environment: String, count: Int64)] {
        let counts = try queries.backingOff()
        let known = APNsEnvironment.allCases.map { name in (name.rawValue, counts.first { $0.0 == name.rawValue }?.1 ?? 0) }
        return known + counts.filter { count in !APNsEnvironment.allCases.contains { $0.rawValue == count.0 } }
    }
}

extension MetricsSnapshot {
    /// The figures of `GET /wakeup/metrics`: a scrape never scans the registrations.
    public static func gather(_ queries: any FigureQueries) throws -> MetricsSnapshot {
        var snapshot = MetricsSnapshot(
            groups: try queries.groups(), totals: try queries.runTotals(since: nil),
            failureReasons: try queries.lifetimeFailureReasons(), lastRun: try queries.lastRun(),
            backingOff: try StatsReport.backingOff(queries), faults: try queries.faults(since: nil))
        snapshot.hosts = try queries.lastRunPerHost(since: nil, failingKinds: SweepFault.failingKinds)
        snapshot.acks = DeliveryReport.outcomes(try queries.acks(sinceHour: nil))
        let delays = try queries.ackDelayTotals()
        var buckets = [Int64](repeating: 0, count: AckDelayBuckets.count)
        for (bucket, count) in delays.buckets where bucket >= 0 && bucket < Int64(buckets.count) { buckets[Int(bucket)] = count }
        snapshot.ackDelayBuckets = buckets
        snapshot.ackDelaySumMilliseconds = delays.sumMilliseconds
        return snapshot
    }
}
