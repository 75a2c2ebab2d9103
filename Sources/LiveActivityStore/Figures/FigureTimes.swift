import LiveActivityDomain
import LiveActivityFigures

/// The times the figures read back, held to `StoredValue.times` as every engine's rows reach the
/// report (SPEC 7: values read back are input too). A run started at -2^63 or a fault last seen at
/// 2^63 - 1 shows at the edge of the range; what the renderers compute from them (ages, a run's
/// end, a chart's position) stays far inside `Int64`.
extension RecordedRun {
    var clamped: RecordedRun {
        RecordedRun(
            startedAt: StoredValue.clamped(time: startedAt),
            durationMilliseconds: StoredValue.clamped(time: durationMilliseconds), outcome: outcome)
    }
}

extension HostRun {
    var clamped: HostRun {
        HostRun(
            host: host, startedAt: StoredValue.clamped(time: startedAt),
            durationMilliseconds: StoredValue.clamped(time: durationMilliseconds), failed: failed)
    }
}

extension StatsReport.FaultTotals {
    var clamped: StatsReport.FaultTotals {
        var totals = self
        totals.lastAt = StoredValue.clamped(time: lastAt)
        return totals
    }
}
