import Glibc
import LiveActivityDomain

/// `GET /wakeup/metrics` in the Prometheus text exposition format (version 0.0.4): gauges of the
/// registrations, and counters over every sweep run the database has recorded, which never go
/// down (pruning the 30-day run history leaves them).
public enum PrometheusMetrics {
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    public static func render(_ snapshot: MetricsSnapshot) -> String {
        var out = ""
        func family(_ name: String, _ type: String, _ help: String) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }

        family("liveactivity_registrations", "gauge", "Stored registrations by activity type and APNs environment.")
        var seen = Set<String>()
        for group in snapshot.groups {
            if group.app.isDefault { seen.insert(group.activityType.rawValue + "/" + group.environment.rawValue) }
            out +=
                "liveactivity_registrations{activity_type=\"\(label(group.activityType.rawValue))\",environment=\"\(label(group.environment.rawValue))\"\(appLabel(group.app.rawValue))} \(group.count)\n"
        }
        // Zero series for the combinations not present keep dashboards and alerts continuous.
        for type in ActivityType.allCases {
            for environment in APNsEnvironment.allCases where !seen.contains(type.rawValue + "/" + environment.rawValue) {
                out +=
                    "liveactivity_registrations{activity_type=\"\(type.rawValue)\",environment=\"\(environment.rawValue)\"} 0\n"
            }
        }

        family(
            "liveactivity_push_targets", "gauge",
            "Stored push targets by kind, activity type and APNs environment (the wake targets are the registrations).")
        var seenTargets = Set<String>()
        for group in snapshot.groups.map({
            StatsReport.Group(activityType: $0.activityType, environment: $0.environment, count: $0.count, app: $0.app)
        })
            + snapshot.otherTargets
        {
            let (kind, type, environment) = (group.kind.name, group.activityType.rawValue, group.environment.rawValue)
            if group.app.isDefault { seenTargets.insert(kind + "/" + type + "/" + environment) }
            out +=
                "liveactivity_push_targets{kind=\"\(label(kind))\",activity_type=\"\(label(type))\",environment=\"\(label(environment))\"\(appLabel(group.app.rawValue))} \(group.count)\n"
        }
        for kind in PushKind.all {
            for type in ActivityType.allCases {
                for environment in APNsEnvironment.allCases
                where !seenTargets.contains(kind.name + "/" + type.rawValue + "/" + environment.rawValue) {
                    out +=
                        "liveactivity_push_targets{kind=\"\(kind.name)\",activity_type=\"\(type.rawValue)\",environment=\"\(environment.rawValue)\"} 0\n"
                }
            }
        }

        family(
            "liveactivity_registrations_backing_off", "gauge",
            "Push targets waiting after failures in a row (back-off), by APNs environment and kind.")
        for entry in snapshot.backingOff {
            out +=
                "liveactivity_registrations_backing_off{environment=\"\(label(entry.environment.rawValue))\",kind=\"\(label(entry.kind.name))\"} \(entry.count)\n"
        }

        let totals = snapshot.totals
        // Every kind this build sends has its series, 0 until it has pushed (as the gauges have).
        var kinds =
            [StatsReport.PushTotals(kind: .wake, sent: totals.sent, failed: totals.failed, removed: totals.removed)]
            + totals.others
        for kind in PushKind.all where !kinds.contains(where: { $0.kind == kind }) {
            kinds.append(StatsReport.PushTotals(kind: kind))
        }
        // Each further app's after the default app's, with its `app` label (SPEC 7).
        kinds += totals.apps
        family("liveactivity_sweep_runs_total", "counter", "Recorded sweep runs.")
        out += "liveactivity_sweep_runs_total \(totals.runs)\n"
        family("liveactivity_pushes_sent_total", "counter", "Pushes APNs accepted (200), by kind.")
        for entry in kinds {
            out +=
                "liveactivity_pushes_sent_total{kind=\"\(label(entry.kind.name))\"\(appLabel(entry.app.rawValue))} \(entry.sent)\n"
        }
        family(
            "liveactivity_pushes_failed_total", "counter",
            "Pushes that failed and were kept for a later sweep, by kind and reason.")
        for entry in kinds {
            out +=
                "liveactivity_pushes_failed_total{kind=\"\(label(entry.kind.name))\"\(appLabel(entry.app.rawValue))} \(entry.failed)\n"
        }
        for entry in snapshot.failureReasons {
            out +=
                "liveactivity_pushes_failed_by_reason_total{kind=\"\(label(entry.kind.name))\",reason=\"\(label(entry.reason))\"} \(entry.count)\n"
        }
        family(
            "liveactivity_registrations_removed_total", "counter",
            "Push targets removed on APNs's answer (410, BadDeviceToken), by kind: a wake target's registration with it."
        )
        for entry in kinds {
            out +=
                "liveactivity_registrations_removed_total{kind=\"\(label(entry.kind.name))\"\(appLabel(entry.app.rawValue))} \(entry.removed)\n"
        }
        family("liveactivity_registrations_expired_total", "counter", "Registrations removed by the expiry.")
        out += "liveactivity_registrations_expired_total \(totals.expired)\n"

        family(
            "liveactivity_sweep_faults_total", "counter",
            "Sweep runs in which a fault stopped sending to an environment, over the recorded runs.")
        for fault in snapshot.faults {
            out += "liveactivity_sweep_faults_total{\(faultLabels(fault))} \(fault.runs)\n"
        }
        family("liveactivity_sweep_fault_pushes_total", "counter", "Pushes held or backed off by those faults.")
        for fault in snapshot.faults {
            out += "liveactivity_sweep_fault_pushes_total{\(faultLabels(fault))} \(fault.pushes)\n"
        }

        renderAcks(snapshot, into: &out)
        renderWithheld(snapshot, into: &out)

        if let last = snapshot.lastRun {
            family("liveactivity_last_sweep_timestamp_seconds", "gauge", "Start of the last recorded sweep, Unix seconds.")
            out += "liveactivity_last_sweep_timestamp_seconds \(Double(last.startedAt) / 1000)\n"
            family("liveactivity_last_sweep_duration_seconds", "gauge", "Duration of the last recorded sweep.")
            out += "liveactivity_last_sweep_duration_seconds \(Double(last.durationMilliseconds) / 1000)\n"
        }
        if !snapshot.hosts.isEmpty {
            family(
                "liveactivity_host_last_sweep_timestamp_seconds", "gauge",
                "Start of each host's last recorded sweep, Unix seconds (several hosts, one database).")
            for run in snapshot.hosts {
                out +=
                    "liveactivity_host_last_sweep_timestamp_seconds{host=\"\(label(run.host))\"} \(Double(run.startedAt) / 1000)\n"
            }
            family("liveactivity_host_last_sweep_failed", "gauge", "1 when a host's last recorded sweep exited non-zero.")
            for run in snapshot.hosts {
                out += "liveactivity_host_last_sweep_failed{host=\"\(label(run.host))\"} \(run.failed ? 1 : 0)\n"
            }
        }
        if let dropped = snapshot.logLinesDropped {
            family(
                "liveactivity_log_lines_dropped_total", "counter",
                "Log lines this responder process could not write (a full disk, a closed stderr), since it started.")
            out += "liveactivity_log_lines_dropped_total \(dropped)\n"
        }
        return out
    }

    /// A fault's labels: `kind` is the fault's (configuration, provider, ...), as it always was;
    /// `push_kind` names the one kind of push a topic fault stopped, where it stopped one alone.
    static func faultLabels(_ fault: StatsReport.FaultTotals) -> String {
        "environment=\"\(label(fault.environment.rawValue))\""
            + (fault.pushKind.map { ",push_kind=\"\(label($0.name))\"" } ?? "")
            + ",kind=\"\(label(fault.kind.rawValue))\",reason=\"\(label(fault.reason))\"" + appLabel(fault.app.rawValue)
    }

    /// `,app="other-app"` on the series of an app other than the default one (SPEC 7: an `app`
    /// label where there are several); the default app's series are as they always were.
    static func appLabel(_ app: String) -> String {
        AppName.isDefault(named: app) ? "" : ",app=\"\(label(app))\""
    }

    /// The longest label value written, in scalars: a host name's length (a label is a key of
    /// the scraper's series, and a planted row must not make it unbounded).
    static let labelLimit = 253

    /// Escapes a label value as the text format asks (backslash, quote, newline), after every
    /// other control character was written out as `OutsideText` does (`\x1b`: values are read
    /// back from the database, which a planted row may fill, and a scrape is read on terminals
    /// too) and the value cut to `labelLimit`.
    static func label(_ value: String) -> String {
        // Scalar by scalar: a CRLF is one Character, and its line feed must be escaped too.
        var escaped = ""
        for scalar in OutsideText.line(value, limit: labelLimit).unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
