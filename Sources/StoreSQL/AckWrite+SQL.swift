import LiveActivityDomain
import LiveActivityStore

/// An ack's writes on its registration's wake target (SPEC 3, `POST /wakeup/ack`) as both SQL
/// engines write them, each engine making its own `StatementShape` of them. Only the attempts'
/// column differs (a blob ring on SQLite, an array of entries on PostgreSQL): its value's SQL is
/// the engine's, passed in.
extension AckWrite {
    /// `.mark`'s input: the registration and its attempts, one of them marked.
    public typealias Marking = (key: RegistrationKey, attempts: [PushAttempt])
    /// `.wait`'s input: when the ack came and what it said of the data.
    public typealias Waiting = (key: RegistrationKey, at: Int64, changed: Bool?)
    /// `.cadence`'s input: the cadence's state and the next push it makes.
    public typealias Pacing = (key: RegistrationKey, state: CadenceState, next: Int64)

    /// The attempts anew, `attempts` being their value as the engine stores them.
    @inlinable public static func markSQL<Value>(attempts: InputSQL<Marking, Value>) -> InputSQL<Marking, Value> {
        """
        UPDATE push_targets SET attempts = \(attempts)
        WHERE \(wakeTargetSQL { $0.key })
        """
    }

    /// The ack waits on the row (`changed` 1, 0 or NULL for not said).
    @inlinable public static func waitSQL<Value>() -> InputSQL<Waiting, Value> {
        """
        UPDATE push_targets SET waiting_ack_at = \(bind: { .integer($0.at) }), \
        waiting_changed = \(bind: { $0.changed.map { .integer($0 ? 1 : 0) } ?? .null })
        WHERE \(wakeTargetSQL { $0.key })
        """
    }

    /// The cadence's state after the ack, and the wake's next push as it makes it.
    @inlinable public static func cadenceSQL<Value>() -> InputSQL<Pacing, Value> {
        """
        UPDATE push_targets SET \(CadenceState.sqlAssignments { $0.state }), next_push_at = \(bind: { .integer($0.next) })
        WHERE \(wakeTargetSQL { $0.key })
        """
    }

    /// The wake target of the registration `key` reads, as an ack's statements name it.
    @inlinable public static func wakeTargetSQL<Input, Value>(
        _ key: @escaping @Sendable (Input) -> RegistrationKey
    ) -> InputSQL<Input, Value> {
        """
        registration_token = \(bind: { .text(key($0).token.hex) }) AND \(raw: PushKind.wake.sqlIs()) \
        AND app = \(bind: { .text(key($0).app.rawValue) })
        """
    }
}
