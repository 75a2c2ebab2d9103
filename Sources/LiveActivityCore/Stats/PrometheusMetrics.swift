/// `GET /wakeup/metrics` in the Prometheus text exposition format (version 0.0.4): gauges of the
/// registrations, counters summed over the recorded sweep runs (30 days are kept).
public enum PrometheusMetrics {
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    public static func render(_ connection: SQLiteConnection) throws -> String {
        var out = ""
        func family(_ name: String, _ type: String, _ help: String) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }

        family("liveactivity_registrations", "gauge", "Stored registrations by activity type and APNs environment.")
        var seen = Set<String>()
        // The trigger-kept counters (schema step 2 → 3): a scrape never scans the table.
        let groups = try connection.statement(
            "SELECT activity_type, environment, n FROM registration_groups WHERE n > 0")
        try groups.bind([])
        while try groups.step() {
            let type = groups.text(0) ?? ""
            let environment = groups.text(1) ?? ""
            seen.insert(type + "/" + environment)
            out +=
                "liveactivity_registrations{activity_type=\"\(label(type))\",environment=\"\(label(environment))\"} \(groups.int(2))\n"
        }
        groups.reset()
        // Zero series for the combinations not present keep dashboards and alerts continuous.
        for type in ActivityType.allCases {
            for environment in APNsEnvironment.allCases where !seen.contains(type.rawValue + "/" + environment.rawValue) {
                out +=
                    "liveactivity_registrations{activity_type=\"\(type.rawValue)\",environment=\"\(environment.rawValue)\"} 0\n"
            }
        }

        let totals = try connection.statement(
            """
            SELECT count(*), coalesce(sum(sent), 0), coalesce(sum(failed), 0), coalesce(sum(removed), 0),
                   coalesce(sum(expired), 0)
            FROM sweep_runs
            """)
        try totals.bind([])
        _ = try totals.step()
        let runs = totals.int(0)
        let sent = totals.int(1)
        let failed = totals.int(2)
        let removed = totals.int(3)
        let expired = totals.int(4)
        totals.reset()
        family("liveactivity_sweep_runs_total", "counter", "Recorded sweep runs.")
        out += "liveactivity_sweep_runs_total \(runs)\n"
        family("liveactivity_pushes_sent_total", "counter", "Pushes APNs accepted (200), over the recorded runs.")
        out += "liveactivity_pushes_sent_total \(sent)\n"
        family("liveactivity_pushes_failed_total", "counter", "Pushes that failed and were kept for a later sweep, by reason.")
        out += "liveactivity_pushes_failed_total \(failed)\n"
        try reasons(connection, kind: "failed") { reason, count in
            out += "liveactivity_pushes_failed_by_reason_total{reason=\"\(label(reason))\"} \(count)\n"
        }
        family(
            "liveactivity_registrations_removed_total", "counter", "Registrations removed on APNs's answer (410, BadDeviceToken)."
        )
        out += "liveactivity_registrations_removed_total \(removed)\n"
        family("liveactivity_registrations_expired_total", "counter", "Registrations removed by the expiry.")
        out += "liveactivity_registrations_expired_total \(expired)\n"

        let last = try connection.statement("SELECT started_at, duration_ms FROM sweep_runs ORDER BY started_at DESC LIMIT 1")
        try last.bind([])
        if try last.step() {
            family("liveactivity_last_sweep_timestamp_seconds", "gauge", "Start of the last recorded sweep, Unix seconds.")
            out += "liveactivity_last_sweep_timestamp_seconds \(Double(last.int(0)) / 1000)\n"
            family("liveactivity_last_sweep_duration_seconds", "gauge", "Duration of the last recorded sweep.")
            out += "liveactivity_last_sweep_duration_seconds \(Double(last.int(1)) / 1000)\n"
        }
        last.reset()
        return out
    }

    private static func reasons(_ connection: SQLiteConnection, kind: String, _ each: (String, Int64) -> Void) throws {
        let statement = try connection.statement(
            "SELECT reason, sum(count) FROM sweep_reasons WHERE kind = ? GROUP BY reason ORDER BY reason")
        try statement.bind([.text(kind)])
        defer { statement.reset() }
        while try statement.step() { each(statement.text(0) ?? "", statement.int(1)) }
    }

    /// Escapes a label value (backslash, quote, newline).
    static func label(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
