import LiveActivityDomain

/// The wakes' delivery and ack figures, decoded once from any engine's row. An outcome this
/// build does not know (a newer build's) is left out, as `WithheldWakes` does; an app's name is
/// kept as stored, shown escaped.
extension AckOutcomeCount {
    /// From a row of outcome, count (a total as kept, or a sum) and app.
    public init?(stored row: some StoredRow) {
        guard let outcome = row.text(0).flatMap(AckOutcome.init(rawValue:)) else { return nil }
        self.init(outcome: outcome, count: row.int(1), app: AppName(trusted: row.text(2) ?? ""))
    }
}

extension DeliveryHourFigures {
    /// From a row of hour, delivered, acked, the delay buckets (`AckDelayBuckets.count` of
    /// them, in order) and app: each engine sums the columns its own way.
    public init(stored row: some StoredRow) {
        self.init(
            hour: row.int(0), delivered: row.int(1), acked: row.int(2),
            delays: (0..<AckDelayBuckets.count).map { row.int(Int32($0 + 3)) },
            app: AppName(trusted: row.text(Int32(AckDelayBuckets.count + 3)) ?? ""))
    }
}
