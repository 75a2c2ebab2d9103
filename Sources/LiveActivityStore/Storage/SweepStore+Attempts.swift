import LiveActivityDomain
import LiveActivityFigures

/// The sweep's writes of the attempt history and the hourly delivery figures (SPEC 4), made in
/// the same transaction as the batch of outcomes they belong to (`SweepStore.apply`).
extension SweepStore {
    /// Inside the caller's transaction, after the batch's outcomes: each answer the outcomes did
    /// not already put on its row (`placed`: most are, in the UPDATE of the outcome itself) put
    /// first in its registration's attempts (`AttemptRing`; a registration already gone keeps
    /// nothing), the oldest beyond 20 dropped; the 200s added to their hour's figures, one
    /// statement per hour, type and environment of the batch; and each environment with a 200
    /// among them kept as one that delivered (`environmentsEverDelivered`).
    func recordAnswered(_ pushes: [AnsweredPush], placed: Set<String> = []) throws(SQLiteError) {
        guard !pushes.isEmpty else { return }
        let write = try connection.statement(
            "UPDATE registrations SET attempts = \(SQLiteConnection.prependAttemptFunction)(?2, attempts) WHERE push_token = ?1")
        var figures: [FigureKey: (registrations: Int64, delivered: Int64)] = [:]
        var firstDelivery: [APNsEnvironment: Int64] = [:]
        for push in pushes.sorted(by: { $0.attempt.token.hex < $1.attempt.token.hex }) {
            let attempt = push.attempt
            let hex = attempt.token.hex
            if !placed.contains(hex) { try write.run([.text(hex), .blob(AttemptRing.entry(attempt))]) }
            guard attempt.status == 200 else { continue }
            firstDelivery[push.environment] = min(firstDelivery[push.environment] ?? .max, attempt.answeredAt)
            let hour = DeliveryHour.of(attempt.answeredAt)
            let key = FigureKey(hour: hour, activityType: push.activityType, environment: push.environment)
            let firstOfHour = push.previousDeliveryAt.map { DeliveryHour.of($0) < hour } ?? true
            figures[key, default: (0, 0)].delivered += 1
            if firstOfHour { figures[key, default: (0, 0)].registrations += 1 }
        }
        let add = try connection.statement(
            """
            INSERT INTO delivery_hours (hour, activity_type, environment, registrations, delivered) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (hour, activity_type, environment) DO UPDATE SET
                registrations = registrations + excluded.registrations, delivered = delivered + excluded.delivered
            """)
        for (key, counts) in figures {
            try add.run([
                .integer(key.hour), .text(key.activityType.rawValue), .text(key.environment.rawValue),
                .integer(counts.registrations), .integer(counts.delivered),
            ])
        }
        // SPEC 5's guard: the environments that ever had a 200 (Schema+Version9 says why not a trigger).
        let delivered = try connection.statement(
            "INSERT OR IGNORE INTO delivered_environments (environment, first_delivered_at) VALUES (?, ?)")
        for (environment, at) in firstDelivery { try delivered.run([.text(environment.rawValue), .integer(at)]) }
    }

    /// Drops the hourly figures older than 7 days before `now` (with the run history's pruning).
    func pruneDeliveryFigures(now: Int64) throws(SQLiteError) {
        let oldest = DeliveryHour.of(now) - DeliveryHour.kept
        try connection.statement("DELETE FROM delivery_hours WHERE hour < ?").run([.integer(oldest)])
        try connection.statement("DELETE FROM ack_hours WHERE hour < ?").run([.integer(oldest)])
    }

    private struct FigureKey: Hashable {
        var hour: Int64
        var activityType: ActivityType
        var environment: APNsEnvironment
    }
}
