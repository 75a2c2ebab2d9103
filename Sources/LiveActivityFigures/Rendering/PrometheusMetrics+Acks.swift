import LiveActivityDomain

/// The ack families of `/wakeup/metrics` (SPEC 7, issue 16): acks by outcome, and the delay from
/// APNs's 200 to the app's ack as a histogram, both lifetime totals that never go down.
extension PrometheusMetrics {
    static func renderAcks(_ snapshot: MetricsSnapshot, into out: inout String) {
        out += "# HELP liveactivity_acks_total Acks from the app (POST /wakeup/ack), by outcome.\n"
        out += "# TYPE liveactivity_acks_total counter\n"
        for outcome in AckOutcome.allCases {
            out += "liveactivity_acks_total{outcome=\"\(outcome.rawValue)\"} \(snapshot.acks[outcome] ?? 0)\n"
        }
        let name = "liveactivity_wake_ack_delay_seconds"
        out += "# HELP \(name) Time from APNs's 200 to the app's matched ack.\n# TYPE \(name) histogram\n"
        var cumulative: Int64 = 0
        for (index, bound) in AckDelayBuckets.upperBoundsSeconds.enumerated() {
            cumulative = cumulative.addingSaturated(snapshot.ackDelayBuckets[index])
            out += "\(name)_bucket{le=\"\(bound == bound.rounded() ? String(Int(bound)) : String(bound))\"} \(cumulative)\n"
        }
        cumulative = cumulative.addingSaturated(snapshot.ackDelayBuckets.last ?? 0)
        out += "\(name)_bucket{le=\"+Inf\"} \(cumulative)\n"
        out += "\(name)_sum \(Double(snapshot.ackDelaySumMilliseconds) / 1000)\n"
        out += "\(name)_count \(cumulative)\n"
    }
}
