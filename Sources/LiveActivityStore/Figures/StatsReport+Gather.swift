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
        let groups = try queries.groups().sorted(by: StatsReport.Group.ordered)
        report.byTypeAndEnvironment = groups.filter { $0.kind == .wake }
        report.otherTargets = groups.filter { $0.kind != .wake }
        report.active = report.byTypeAndEnvironment.map(\.count).saturatedSum()
        report.activeWakeups = try queries.wakeupTotal()

        // Ages from range counts: rows newer than each bound.
        let minute: Int64 = 60_000
        let newerThan = try queries.registeredAfter([now - 5 * minute, now - 30 * minute, now - 120 * minute, now - 480 * minute])
        let ages =
            [newerThan[0]] + (1..<4).map { max(0, newerThan[$0].subtractingSaturated(newerThan[$0 - 1])) }
            + [max(0, report.active.subtractingSaturated(newerThan[3]))]
        report.byAge = zip(ageLabels, ages).map { ($0, $1) }
        report.oldestRegisteredAt = try queries.oldestRegisteredAt().map(StoredValue.clamped(time:))
        report.topWakeups = try queries.topWakeups(limit: 5).map { StatsReport.TopCount(token: $0.token + "…", count: $0.count) }

        report.lastDay = try queries.runTotals(since: now - 86_400_000)
        report.lastWeek = try queries.runTotals(since: now - 7 * 86_400_000)
        let lifetime = try queries.runTotals(since: nil)
        report.lifetimeSent = lifetime.sent
        report.lifetimeOthers = lifetime.others
        report.lifetimeApps = lifetime.apps
        report.backingOff = try backingOff(queries)
        report.recentFaults = try queries.faults(since: now - 86_400_000).map(\.clamped).sorted(
            by: StatsReport.FaultTotals.ordered)
        let last = try queries.lastRun()?.clamped
        report.lastRunAt = last?.startedAt
        report.lastRunDurationMilliseconds = last?.durationMilliseconds
        report.lastRunOutcome = last?.outcome
        report.withheld = StatsReport.Withheld(
            lastDay: try withheld(queries, since: now - 86_400_000), lastWeek: try withheld(queries, since: now - 7 * 86_400_000),
            lifetime: try withheld(queries, since: nil))
        report.delivery = try DeliveryReport.gather(queries, now: now)
        report.day = try Day.gather(queries, now: now)
        return report
    }

    /// The wakes the cadence withheld since `since` (nil: ever), in their order.
    static func withheld(_ queries: any FigureQueries, since: Int64?) throws -> [WithheldWakes] {
        WithheldWakes.listed(try queries.withheld(since: since).map { ($0.group, $0.count) })
    }

    /// Targets waiting after failures: the wakes' of every environment listed (0 when none), then
    /// other kinds' where they have any.
    static func backingOff(_ queries: any FigureQueries) throws -> [StatsReport.BackingOff] {
        let counts = try queries.backingOff().sorted(by: StatsReport.BackingOff.ordered)
        let wakes = APNsEnvironment.allCases.map { environment in
            StatsReport.BackingOff(
                environment: environment, count: counts.first { $0.environment == environment && $0.kind == .wake }?.count ?? 0)
        }
        return wakes + counts.filter { $0.kind != .wake }
    }
}

extension MetricsSnapshot {
    /// The figures of `GET /wakeup/metrics`: a scrape never scans the registrations.
    public static func gather(_ queries: any FigureQueries) throws -> MetricsSnapshot {
        let groups = try queries.groups().sorted(by: StatsReport.Group.ordered)
        var snapshot = MetricsSnapshot(
            groups: groups.filter { $0.kind == .wake }, totals: try queries.runTotals(since: nil),
            failureReasons: try queries.lifetimeFailureReasons().sorted(by: StatsReport.ReasonCount.ordered),
            lastRun: try queries.lastRun()?.clamped, backingOff: try StatsReport.backingOff(queries),
            faults: try queries.faults(since: nil).map(\.clamped).sorted(by: StatsReport.FaultTotals.ordered))
        snapshot.otherTargets = groups.filter { $0.kind != .wake }
        snapshot.withheld = try StatsReport.withheld(queries, since: nil)
        snapshot.hosts = try queries.lastRunPerHost(since: nil, failingKinds: SweepFault.failingKinds).map(\.clamped)
            .sorted(by: HostRun.ordered)
        // Acks by app: the default app's as they always were, each further app's apart.
        let acks = try queries.acks(sinceHour: nil)
        let delays = try queries.ackDelayTotals()
        let named = Set(acks.map(\.app) + delays.map(\.app))
        for app in named.union([AppName.defaultApp]) {
            var figures = MetricsSnapshot.AppAcks()
            figures.acks = DeliveryReport.outcomes(acks.filter { $0.app == app })
            for totals in delays where totals.app == app {
                for (bucket, count) in totals.buckets.enumerated() where bucket < figures.delayBuckets.count {
                    figures.delayBuckets[bucket] = figures.delayBuckets[bucket].addingSaturated(count)
                }
                figures.delaySumMilliseconds = figures.delaySumMilliseconds.addingSaturated(totals.sumMilliseconds)
            }
            if app.isDefault {
                snapshot.acks = figures.acks
                snapshot.ackDelayBuckets = figures.delayBuckets
                snapshot.ackDelaySumMilliseconds = figures.delaySumMilliseconds
            } else {
                snapshot.appAcks[app.rawValue] = figures
            }
        }
        return snapshot
    }
}

extension StatsReport.RunTotals {
    /// The totals of `run` (its runs and expired) with each app's and kind's sums: the default
    /// app's wakes' on the totals themselves, its every other kind's in `others`, in the kinds'
    /// order, and every further app's in `apps`, by name then in the kinds' order. Every engine
    /// assembles its rows through this.
    public static func assembled(_ run: StatsReport.RunTotals, kinds: [StatsReport.PushTotals]) -> StatsReport.RunTotals {
        var totals = run
        totals.others = []
        totals.apps = []
        for entry in kinds {
            if !entry.app.isDefault {
                totals.apps.append(entry)
            } else if entry.kind == .wake {
                (totals.sent, totals.failed, totals.removed) = (entry.sent, entry.failed, entry.removed)
            } else {
                totals.others.append(
                    StatsReport.PushTotals(kind: entry.kind, sent: entry.sent, failed: entry.failed, removed: entry.removed))
            }
        }
        let order = { (kind: PushKind) in PushKind.all.firstIndex(of: kind) ?? .max }
        totals.others.sort { order($0.kind) < order($1.kind) }
        totals.apps.sort { ($0.app.rawValue, order($0.kind)) < ($1.app.rawValue, order($1.kind)) }
        return totals
    }
}
