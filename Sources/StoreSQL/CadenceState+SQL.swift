import LiveActivityDomain
import LiveActivityStore

/// The four `CadenceColumns` as the SQL engines write them, each bind read from a run's input
/// (`StatementShape`): a registration's insert and refresh, an ack's cadence.
extension CadenceState {
    /// The four columns' values, in their order, of the state `cadence` reads.
    @inlinable public static func sqlValues<Input, Value>(
        reading cadence: @escaping @Sendable (Input) -> CadenceState
    ) -> InputSQL<Input, Value> {
        """
        \(bind: { cadence($0).storedValues.activities.map { .integer($0) } ?? .null }), \
        \(bind: { cadence($0).storedValues.backgroundRefresh.map { .text($0) } ?? .null }), \
        \(bind: { cadence($0).storedValues.lowPower.map { .integer($0) } ?? .null }), \
        \(bind: { .integer(cadence($0).storedValues.unchangedAcks) })
        """
    }

    /// The four columns set to the state `cadence` reads.
    @inlinable public static func sqlAssignments<Input, Value>(
        reading cadence: @escaping @Sendable (Input) -> CadenceState
    ) -> InputSQL<Input, Value> {
        """
        activities = \(bind: { cadence($0).storedValues.activities.map { .integer($0) } ?? .null }), \
        background_refresh = \(bind: { cadence($0).storedValues.backgroundRefresh.map { .text($0) } ?? .null }), \
        low_power = \(bind: { cadence($0).storedValues.lowPower.map { .integer($0) } ?? .null }), \
        unchanged_acks = \(bind: { .integer(cadence($0).storedValues.unchangedAcks) })
        """
    }
}
