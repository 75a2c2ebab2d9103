import LiveActivityDomain
import LiveActivityStore

/// A database for the stats and metrics tests, as of `now`: four registrations of known ages,
/// types and environments (two pushed, one waiting after two failures), and two recorded sweeps
/// (one 3 days ago, then one 10 minutes ago with a sandbox fault).
@discardableResult
public func populateStatsFigures(_ database: TestDatabase, now: Int64) throws -> TestDatabase {
    let minute: Int64 = 60_000
    let ages: [(Int, ActivityType, APNsEnvironment, Int64)] = [
        (1, .charging, .production, 1 * minute), (2, .charging, .production, 10 * minute),
        (3, .debug, .sandbox, 45 * minute), (4, .charging, .sandbox, 3 * 60 * minute),
    ]
    for (seed, type, environment, age) in ages {
        try database.register(
            try PushToken(validating: sampleToken(seed)), type: type, environment: environment, now: now - age, expiresAt: now,
            cap: 100)
    }
    try database.execute("UPDATE push_targets SET push_count = 7 WHERE push_token = '\(sampleToken(3))'")
    try database.execute("UPDATE push_targets SET push_count = 2 WHERE push_token = '\(sampleToken(4))'")
    try database.recountWakeups()
    try database.execute("UPDATE push_targets SET consecutive_failures = 2 WHERE push_token = '\(sampleToken(3))'")
    var older = SweepSummary()
    older.startedAt = now - 3 * 86_400_000
    older.sent = 100
    try database.record(older)  // recorded in the order the runs happened
    var recent = SweepSummary()
    recent.startedAt = now - 10 * minute
    recent.sent = 90
    recent.failed = 10
    recent.removed = 3
    recent.durationMilliseconds = 1234
    recent.failureReasons = ["ServiceUnavailable": 10]
    recent.removalReasons = ["Unregistered": 3]
    recent.faults = [
        SweepFault(environment: .sandbox, kind: .configuration, reason: "BadEnvironmentKeyInToken", pushes: 40, advice: "")
    ]
    try database.record(recent)
    return database
}
