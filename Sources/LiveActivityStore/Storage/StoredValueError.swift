import LiveActivityDomain

/// A stored value this build does not know: an environment or activity type that a newer build
/// or a hand edit wrote. Reading it is an error naming it, not a guess (a guess of `.production`
/// would push a sandbox token to the wrong host and delete it on the BadDeviceToken answer).
public struct StoredValueError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `table.column`.
    public let column: String
    public let value: String?

    public init(column: String, value: String?) {
        self.column = column
        self.value = value
    }

    public var description: String {
        "the database holds \(column) \(value.map { "'\($0.prefix(40))'" } ?? "NULL"), which this build does not know"
    }
}

extension Row {
    /// The environment stored in `column` of `registrations`.
    func environment(_ column: Int32) throws(StoredValueError) -> APNsEnvironment {
        let stored = text(column)
        guard let environment = stored.flatMap(APNsEnvironment.init(name:)) else {
            throw StoredValueError(column: "registrations.environment", value: stored)
        }
        return environment
    }

    /// The activity type stored in `column` of `registrations`.
    func activityType(_ column: Int32) throws(StoredValueError) -> ActivityType {
        let stored = text(column)
        guard let type = stored.flatMap(ActivityType.init(rawValue:)) else {
            throw StoredValueError(column: "registrations.activity_type", value: stored)
        }
        return type
    }
}
