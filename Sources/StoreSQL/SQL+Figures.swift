import LiveActivityDomain
import LiveActivityFigures
import LiveActivityStore

/// The figures' statements (SPEC 7) whose text is the same on both SQL engines; a statement that
/// differs in dialect (PostgreSQL's `::bigint` sums, `ANY` over an array) stays with its engine.
extension SQL {
    /// The trigger-kept group counters that hold a target.
    public static var figureGroups: SQL { "SELECT \(raw: StatsReport.Group.storedColumns) FROM target_groups WHERE n > 0" }

    /// The oldest wake registration, from the registered_at index.
    public static var oldestWakeRegistration: SQL {
        "SELECT min(registered_at) FROM push_targets WHERE \(raw: PushKind.wake.sqlIs())"
    }

    /// The most pushed wake targets, read from `source`: no index keeps them in order (its entry
    /// would move on every push), so each engine names the cheapest whole read it has.
    public static func topWakeups(limit: Int, from source: String = "push_targets") -> SQL {
        """
        SELECT substr(registration_token, 1, 8), push_count FROM \(raw: source) WHERE \(raw: PushKind.wake.sqlIs()) \
        AND push_count > 0
        ORDER BY push_count DESC, registration_token LIMIT \(bind: Int64(limit))
        """
    }

    /// The failing targets per environment and kind, from the partial index that holds only them.
    public static var backingOff: SQL {
        """
        SELECT \(raw: StatsReport.BackingOff.storedColumns), count(*) FROM push_targets WHERE consecutive_failures > 0
        GROUP BY environment, push_kind
        """
    }

    /// The lifetime run and expiry counts.
    public static var lifetimeRuns: SQL { "SELECT runs, expired FROM sweep_totals WHERE id = 1" }

    /// The lifetime pushes per app and kind.
    public static var lifetimeKindTotals: SQL { "SELECT push_kind, sent, failed, removed, app FROM sweep_kind_totals" }

    /// The run recorded last, by its id (the order of recording), not by any host's clock.
    public static var lastRun: SQL { "SELECT started_at, duration_ms, outcome FROM sweep_runs ORDER BY id DESC LIMIT 1" }

    /// The lifetime faults per scope, kind and reason.
    public static var lifetimeFaults: SQL {
        "SELECT environment, push_kind, kind, reason, runs, pushes, last_at, app FROM sweep_fault_totals"
    }

    /// The lifetime withheld wakes.
    public static var lifetimeWithheld: SQL {
        "SELECT \(raw: WithheldWakes.storedColumns), count FROM sweep_withheld_totals"
    }

    /// The lifetime failure reasons per kind.
    public static var lifetimeFailureReasons: SQL {
        "SELECT reason, count, push_kind FROM sweep_reason_totals WHERE kind = 'failed'"
    }

    /// The lifetime ack outcomes per app.
    public static var lifetimeAcks: SQL { "SELECT outcome, count, app FROM ack_totals" }

    /// The lifetime ack delays per bucket and app.
    public static var lifetimeAckDelayBuckets: SQL { "SELECT bucket, count, app FROM ack_delay_totals" }

    /// The lifetime sum of matched acks' delays per app.
    public static var lifetimeAckDelaySums: SQL { "SELECT app, delay_sum_ms FROM ack_totals WHERE outcome = 'matched'" }

    /// The registrations whose token starts with `prefix`: ranges on the primary key and on the
    /// partial index of other kinds' own tokens, `token >= prefix AND token < prefix || 'g'`
    /// (tokens are lowercase hex, and 'g' sorts after every hex digit, in the byte order and in
    /// every collation's order of digits and letters).
    public static func prefixMatches(_ prefix: String) -> SQL {
        """
        SELECT registration_token, app FROM push_targets
        WHERE registration_token >= \(bind: prefix) AND registration_token < \(bind: prefix + "g") \
        AND \(raw: PushKind.wake.sqlIs())
        UNION SELECT registration_token, app FROM push_targets WHERE push_token >= \(bind: prefix) \
        AND push_token < \(bind: prefix + "g") AND \(raw: PushKind.wake.sqlIsNot)
        """
    }
}
