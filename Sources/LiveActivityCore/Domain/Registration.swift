/// One stored registration (SPEC section 4). Times are Unix milliseconds.
public struct Registration: Equatable, Sendable {
    public var token: PushToken
    public var activityType: ActivityType
    public var environment: APNsEnvironment
    public var registeredAt: Int64
    public var expiresAt: Int64
    public var nextPushAt: Int64
    public var lastPushAt: Int64?
    public var wakeupCount: Int64
    public var consecutiveFailures: Int64
    public var lastError: String?
}

extension Registration {
    /// Reads the columns in the order the store's SELECTs list them.
    init(row: Row) {
        self.init(
            token: PushToken(trusted: row.text(0) ?? ""),
            activityType: ActivityType(rawValue: row.text(1) ?? "") ?? .default,
            environment: APNsEnvironment(name: row.text(2) ?? "") ?? .production,
            registeredAt: row.int(3), expiresAt: row.int(4), nextPushAt: row.int(5),
            lastPushAt: row.optionalInt(6), wakeupCount: row.int(7), consecutiveFailures: row.int(8),
            lastError: row.text(9))
    }
}
