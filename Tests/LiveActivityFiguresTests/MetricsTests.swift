import LiveActivityDomain
import LiveActivityFigures
import LiveActivityStore
import TestSupport
import Testing

/// `GET /wakeup/metrics`'s figures, read from a real database (each real engine, the test's
/// argument: the figures' fixture plants numbers with SQL) and rendered for Prometheus.
@Suite struct MetricsTests {
    let folder = TemporaryDirectory("metrics")
    let now: Int64 = 1_800_000_000_000

    func populatedStore(on engine: TestEngine) throws -> TestDatabase {
        try populateStatsFigures(TestDatabase(engine, label: "stats"), now: now)
    }

    @Test(arguments: TestEngine.real)
    func metricsAreInPrometheusTextFormat(engine: TestEngine) throws {
        let text = PrometheusMetrics.render(try populatedStore(on: engine).metricsSnapshot())
        #expect(text.contains("# TYPE liveactivity_registrations gauge\n"))
        #expect(text.contains("liveactivity_registrations{activity_type=\"charging\",environment=\"production\"} 2\n"))
        #expect(text.contains("liveactivity_registrations{activity_type=\"debug\",environment=\"production\"} 0\n"))
        #expect(text.contains("liveactivity_pushes_sent_total{kind=\"wake\"} 190\n"))
        #expect(text.contains("liveactivity_pushes_failed_total{kind=\"wake\"} 10\n"))
        #expect(text.contains("liveactivity_pushes_failed_by_reason_total{kind=\"wake\",reason=\"ServiceUnavailable\"} 10\n"))
        #expect(text.contains("liveactivity_registrations_removed_total{kind=\"wake\"} 3\n"))
        #expect(text.contains("liveactivity_last_sweep_duration_seconds 1.234\n"))
        #expect(text.contains("liveactivity_registrations_backing_off{environment=\"production\",kind=\"wake\"} 0\n"))
        #expect(text.contains("liveactivity_registrations_backing_off{environment=\"sandbox\",kind=\"wake\"} 1\n"))
        let labels = #"environment="sandbox",kind="configuration",reason="BadEnvironmentKeyInToken""#
        #expect(text.contains("liveactivity_sweep_faults_total{\(labels)} 1\n"))
        #expect(text.contains("liveactivity_sweep_fault_pushes_total{\(labels)} 40\n"))
        // Every sample line is `name{labels} value`.
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            #expect(line.split(separator: " ").count == 2, "\(line)")
        }
    }

    @Test(arguments: TestEngine.real)
    func faultCountersNeverGoDownWhenTheHistoryIsPruned(engine: TestEngine) throws {
        let store = try populatedStore(on: engine)
        let sweeps = store
        var later = SweepSummary()
        later.startedAt = now + 32 * 86_400_000
        later.faults = [
            SweepFault(environment: .sandbox, kind: .configuration, reason: "BadEnvironmentKeyInToken", pushes: 2, advice: "")
        ]
        try sweeps.record(later)
        #expect(try store.scalar("SELECT count(*) FROM sweep_faults") == 1, "the older one was pruned")
        let text = PrometheusMetrics.render(try store.metricsSnapshot())
        let labels = #"environment="sandbox",kind="configuration",reason="BadEnvironmentKeyInToken""#
        #expect(text.contains("liveactivity_sweep_faults_total{\(labels)} 2\n"))
        #expect(text.contains("liveactivity_sweep_fault_pushes_total{\(labels)} 42\n"))
    }

    /// Issue 48 point 5: an app name or host read back from the database (which a planted row
    /// may fill) reaches the labels escaped and cut: no control character, no line of its own.
    @Test(arguments: TestEngine.real)
    func plantedNamesReachTheLabelsEscapedAndCut(engine: TestEngine) throws {
        let store = try populatedStore(on: engine)
        let escape = "\u{1b}[31m"
        let char = engine == .sqlite ? "char" : "chr"
        try store.execute(
            "UPDATE target_groups SET app = 'x /tmp/evil.so' || \(char)(27) || '[31m' || \(char)(10) || 'y' || '\(String(repeating: "a", count: 300))'"
        )
        let text = PrometheusMetrics.render(try store.metricsSnapshot())
        #expect(!text.contains(escape) && !text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(text.contains(#"app="x /tmp/evil.so\\x1b[31m\\nyaaa"#), "written out, and the text format's escapes on top")
        #expect(!text.contains(String(repeating: "a", count: 250)), "a label is cut")
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            #expect(line.hasPrefix("liveactivity_"), "\(line)")
        }
    }
}
