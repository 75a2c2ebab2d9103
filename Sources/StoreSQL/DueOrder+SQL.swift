import LiveActivityDomain
import LiveActivityStore

/// The due order as the SQL engines write it.
extension DueOrder {
    /// The columns in the due order.
    public static let columns = "next_push_at, registration_token, push_kind, app"

    /// `ORDER BY` the due order.
    public static func orderBy<Value>() -> SQL<Value> { "ORDER BY \(raw: columns)" }

    /// The rows after `position` in the due order (one row comparison, which the due index answers).
    public static func after<Value>(_ position: DuePosition) -> SQL<Value> {
        """
        (\(raw: columns)) > (\(bind: position.nextPushAt), \(bind: position.key.registration.hex), \
        \(bind: position.key.kind.name), \(bind: position.key.app.rawValue))
        """
    }
}
