import LiveActivityDomain
import LiveActivityStore
import SQLiteClient

/// Reading the registrations' rows back, each value checked (`StoredValue`): a value this build
/// does not know or trust is an error naming it, never a guess and never a crash.
extension Row {
    /// The columns `SQLiteStoreConnection.registrationColumns` selects, from `first` on.
    func registration(from first: Int32 = 0) throws(StoredValueError) -> Registration {
        let column = { (offset: Int32) in first + offset }
        return Registration(
            token: try StoredValue.token(text(column(0))), activityType: try StoredValue.activityType(text(column(1))),
            environment: try StoredValue.environment(text(column(2))),
            registeredAt: try StoredValue.time(int(column(3)), column: "registered_at"),
            expiresAt: try StoredValue.time(int(column(4)), column: "expires_at"),
            nextPushAt: try StoredValue.time(int(column(5)), column: "next_push_at"),
            lastPushAt: try StoredValue.optionalTime(optionalInt(column(6)), column: "last_push_at"),
            wakeupCount: try StoredValue.count(int(column(7)), in: StoredValue.wakeups, column: "wakeup_count"),
            consecutiveFailures: try StoredValue.count(int(column(8)), in: StoredValue.failures, column: "consecutive_failures"),
            lastError: text(column(9)), requestedInterval: try StoredValue.requestedInterval(optionalInt(column(10))))
    }
}

extension SQLiteStoreConnection {
    /// The columns of a whole registration, in the order `Row.registration(from:)` reads them.
    static let registrationColumns = """
        push_token, activity_type, environment, registered_at, expires_at, next_push_at,
        last_push_at, wakeup_count, consecutive_failures, last_error, requested_interval
        """
}
