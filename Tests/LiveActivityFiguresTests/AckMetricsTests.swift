import LiveActivityDomain
import LiveActivityFigures
import LiveActivityStore
import TestSupport
import Testing

/// `/wakeup/metrics` adds `liveactivity_acks_total{outcome}` and the ack delay histogram
/// (SPEC 7, issue 16), on every engine (the test's argument).
@Suite struct AckMetricsTests {
    let folder = TemporaryDirectory("ackmetrics")
    let now: Int64 = 1_800_000_000_000

    @Test(arguments: TestEngine.every)
    func acksByOutcomeAndTheirDelayHistogram(engine: TestEngine) throws {
        let store = try populateDeliveryFigures(TestDatabase(engine, label: "delivery"), now: now)
        let text = PrometheusMetrics.render(try store.metricsSnapshot())
        #expect(text.contains("# TYPE liveactivity_acks_total counter\n"))
        #expect(text.contains("liveactivity_acks_total{outcome=\"matched\"} 8\n"))
        #expect(text.contains("liveactivity_acks_total{outcome=\"duplicate\"} 1\n"))
        #expect(text.contains("liveactivity_acks_total{outcome=\"unmatched\"} 1\n"))
        #expect(text.contains("# TYPE liveactivity_wake_ack_delay_seconds histogram\n"))
        for (bound, count) in [("0.5", 1), ("1", 1), ("2", 3), ("5", 6), ("10", 7), ("30", 8), ("3600", 8), ("+Inf", 8)] {
            #expect(text.contains("liveactivity_wake_ack_delay_seconds_bucket{le=\"\(bound)\"} \(count)\n"), "le=\(bound)")
        }
        #expect(text.contains("liveactivity_wake_ack_delay_seconds_sum 40.5\n"))
        #expect(text.contains("liveactivity_wake_ack_delay_seconds_count 8\n"))
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            #expect(line.split(separator: " ").count == 2, "\(line)")
        }
    }

    @Test(arguments: TestEngine.every)
    func anEmptyDatabaseHasZeroSeries(engine: TestEngine) throws {
        let store = try TestDatabase(engine, label: "empty")
        let text = PrometheusMetrics.render(try store.metricsSnapshot())
        #expect(text.contains("liveactivity_acks_total{outcome=\"unmatched\"} 0\n"))
        #expect(text.contains("liveactivity_wake_ack_delay_seconds_bucket{le=\"+Inf\"} 0\n"))
        #expect(text.contains("liveactivity_wake_ack_delay_seconds_sum 0.0\n"))
    }
}
