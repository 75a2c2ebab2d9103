import LiveActivityDomain
import LiveActivityFigures

/// `StatsReport.Day`, the status page's last 24 hours: range reads of the run history (1,440 runs
/// a day at cron's pace) and of the hourly delivery figures, never the registrations.
extension StatsReport.Day {
    static func gather(_ queries: any FigureQueries, now: Int64) throws -> StatsReport.Day {
        var day = StatsReport.Day()
        day.start = start(now: now)
        let buckets = try queries.runBuckets(since: day.start, width: bucketMilliseconds)
        day.buckets = buckets.filter { $0.kind == PushKind.wake.name }
        for bucket in buckets
        where bucket.kind != PushKind.wake.name && (bucket.sent > 0 || bucket.failed > 0 || bucket.active > 0) {
            day.otherBuckets[bucket.kind, default: []].append(bucket)
        }
        // Pushes answered 200 and the acks that matched them, both by the hour APNs answered:
        // one basis for the share, whatever hour the run that sent them started in.
        let firstHour = DeliveryHour.of(firstHour(now: now))
        let hours = try queries.deliveryHours(sinceHour: firstHour)
        let anyAck = try queries.acks(sinceHour: nil).contains { $0.count > 0 }
        day.hours = hours.map { hour in
            var wake = StatsReport.WakeHour(start: hour.hour * DeliveryHour.milliseconds, answered: hour.delivered)
            // Left nil while this database has counted no ack at all: "no acks yet", not 0%.
            if anyAck {
                wake.acknowledged = hour.acked
                wake.delayMedianMilliseconds = AckDelayBuckets.quantile(0.5, of: hour.delays).map { Int64(saturating: $0 * 1000) }
                wake.delayP90Milliseconds = AckDelayBuckets.quantile(0.9, of: hour.delays).map { Int64(saturating: $0 * 1000) }
            }
            return wake
        }
        let reasons = try queries.reasons(since: now - 86_400_000)
        day.failureReasons = reasons.filter { $0.category == .failed }.map {
            StatsReport.ReasonCount(reason: $0.reason, count: $0.count, kind: $0.kind)
        }
        day.removalReasons = reasons.filter { $0.category == .removed }.map {
            StatsReport.ReasonCount(reason: $0.reason, count: $0.count, kind: $0.kind)
        }

        let failing = SweepFault.failingKinds
        let last = try queries.lastRunEnd(failingKinds: failing)
        day.lastRunFinishedAt = last?.finishedAt
        day.lastRunExitedNonZero = last?.failed ?? false
        day.hosts = try queries.lastRunPerHost(
            since: now - HostRun.listedForMilliseconds, failingKinds: failing)
        return day
    }
}
