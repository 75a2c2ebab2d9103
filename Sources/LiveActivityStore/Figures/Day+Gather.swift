import LiveActivityDomain
import LiveActivityFigures

/// `StatsReport.Day`, the status page's last 24 hours: range reads of the run history (1,440 runs
/// a day at cron's pace) and of the hourly delivery figures, never the registrations; the default
/// app's as they always were, each further app's apart (`apps`).
extension StatsReport.Day {
    static func gather(_ queries: any FigureQueries, now: Int64) throws -> StatsReport.Day {
        var day = StatsReport.Day()
        day.start = start(now: now)
        let buckets = try queries.runBuckets(since: day.start, width: bucketMilliseconds)
            .sorted(by: StatsReport.SweepBucket.ordered)
        for var bucket in buckets {
            bucket.start = StoredValue.clamped(time: bucket.start)
            let ofDefaultApp = bucket.app.isDefault
            if ofDefaultApp && bucket.kind == .wake {
                day.buckets.append(bucket)
                continue
            }
            guard bucket.sent > 0 || bucket.failed > 0 || bucket.active > 0 else { continue }
            if ofDefaultApp {
                day.otherBuckets[bucket.kind.name, default: []].append(bucket)
            } else {
                day.apps[bucket.app, default: [:]][bucket.kind, default: StatsReport.KindDay()].buckets.append(bucket)
            }
        }
        // Pushes answered 200 and the acks that matched them, both by the hour APNs answered:
        // one basis for the share, whatever hour the run that sent them started in.
        let firstHour = DeliveryHour.of(firstHour(now: now))
        let hours = try queries.deliveryHours(sinceHour: firstHour).sorted(by: DeliveryHourFigures.ordered)
        let acked = Set(try queries.acks(sinceHour: nil).filter { $0.count > 0 }.map(\.app))
        for hour in hours {
            // Left nil while this database has counted no ack of the app at all: "no acks yet", not 0%.
            let wakeHour = Self.wakeHour(hour, anyAck: acked.contains(hour.app))
            if hour.app.isDefault {
                day.hours.append(wakeHour)
            } else {
                day.apps[hour.app, default: [:]][.wake, default: StatsReport.KindDay()].hours.append(wakeHour)
            }
        }
        let reasons = try queries.reasons(since: now - 86_400_000).sorted(by: RunReason.ordered)
        day.failureReasons = reasons.filter { $0.category == .failed }.map {
            StatsReport.ReasonCount(reason: $0.reason, count: $0.count, kind: $0.kind)
        }
        day.removalReasons = reasons.filter { $0.category == .removed }.map {
            StatsReport.ReasonCount(reason: $0.reason, count: $0.count, kind: $0.kind)
        }

        let failing = SweepFault.failingKinds
        let last = try queries.lastRunEnd(failingKinds: failing)
        day.lastRunFinishedAt = last.map { StoredValue.clamped(time: $0.finishedAt) }
        day.lastRunExitedNonZero = last?.failed ?? false
        day.hosts = try queries.lastRunPerHost(
            since: now - HostRun.listedForMilliseconds, failingKinds: failing
        ).map(\.clamped).sorted(by: HostRun.ordered)
        return day
    }

    /// One hour of wakes as the page shows it; the acks nil while the app counted none (`anyAck`).
    static func wakeHour(_ hour: DeliveryHourFigures, anyAck: Bool) -> StatsReport.WakeHour {
        var wake = StatsReport.WakeHour(
            start: StoredValue.clamped(time: hour.hour.multipliedSaturated(by: DeliveryHour.milliseconds)),
            answered: hour.delivered)
        if anyAck {
            wake.acknowledged = hour.acked
            wake.delayMedianMilliseconds = AckDelayBuckets.quantile(0.5, of: hour.delays).map { Int64(saturating: $0 * 1000) }
            wake.delayP90Milliseconds = AckDelayBuckets.quantile(0.9, of: hour.delays).map { Int64(saturating: $0 * 1000) }
        }
        return wake
    }
}
