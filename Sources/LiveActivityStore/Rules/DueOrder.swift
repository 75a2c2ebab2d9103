import LiveActivityDomain

/// The due order (SPEC 5), written once for every engine: the next push's time, then the
/// registration's token, the kind, the app (`DuePosition`'s `<`). The SQL engines order and page
/// by its columns (their due index lists them in this order); the memory engine sorts with
/// `precedes`.
public enum DueOrder {
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

    /// Whether `left` comes before `right` in the due order.
    public static func precedes(_ left: DuePosition, _ right: DuePosition) -> Bool { left < right }
}
