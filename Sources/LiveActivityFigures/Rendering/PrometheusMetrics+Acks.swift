import LiveActivityDomain

/// The ack families of `/wakeup/metrics` (SPEC 7, issue 16): acks by outcome, and the delay from
/// APNs's 200 to the app's ack as a histogram, both lifetime totals that never go down; the
/// default app's series as they always were, each further app's after them with its `app` label.
extension PrometheusMetrics {
    static func renderAcks(_ snapshot: MetricsSnapshot, into out: inout String) {
        let apps = snapshot.appAcks.keys.sorted()
        out += "# HELP liveactivity_acks_total Acks from the app (POST /wakeup/ack), by outcome.\n"
        out += "# TYPE liveactivity_acks_total counter\n"
        for outcome in AckOutcome.allCases {
            out += "liveactivity_acks_total{outcome=\"\(outcome.rawValue)\"} \(snapshot.acks[outcome] ?? 0)\n"
        }
        for app in apps {
            for outcome in AckOutcome.allCases {
                out +=
                    "liveactivity_acks_total{outcome=\"\(outcome.rawValue)\"\(appLabel(app))} \(snapshot.appAcks[app]?.acks[outcome] ?? 0)\n"
            }
        }
        let name = "liveactivity_wake_ack_delay_seconds"
        out += "# HELP \(name) Time from APNs's 200 to the app's matched ack.\n# TYPE \(name) histogram\n"
        histogram(name, buckets: snapshot.ackDelayBuckets, sum: snapshot.ackDelaySumMilliseconds, app: nil, into: &out)
        for app in apps {
            let figures = snapshot.appAcks[app] ?? MetricsSnapshot.AppAcks()
            histogram(name, buckets: figures.delayBuckets, sum: figures.delaySumMilliseconds, app: app, into: &out)
        }
    }

    /// One histogram's series (`buckets` not cumulative, one per `AckDelayBuckets` bound and one
    /// past the last), with `app`'s label where it is a further app's.
    private static func histogram(_ name: String, buckets: [Int64], sum: Int64, app: String?, into out: inout String) {
        let app = app.map(appLabel) ?? ""
        var cumulative: Int64 = 0
        for (index, bound) in AckDelayBuckets.upperBoundsSeconds.enumerated() {
            cumulative = cumulative.addingSaturated(index < buckets.count ? buckets[index] : 0)
            out += "\(name)_bucket{le=\"\(bound == bound.rounded() ? String(Int(bound)) : String(bound))\"\(app)} \(cumulative)\n"
        }
        cumulative = cumulative.addingSaturated(buckets.last ?? 0)
        out += "\(name)_bucket{le=\"+Inf\"\(app)} \(cumulative)\n"
        let labels = app.isEmpty ? "" : "{" + app.dropFirst() + "}"
        out += "\(name)_sum\(labels) \(Double(sum) / 1000)\n"
        out += "\(name)_count\(labels) \(cumulative)\n"
    }
}
