import LiveActivityDomain

/// The due order (SPEC 5), written once for every engine: the next push's time, then the
/// registration's token, the kind, the app (`DuePosition`'s `<`). The SQL engines order and page
/// by its columns (their due index lists them in this order; `DueOrder+SQL` in StoreSQL); the
/// memory engine sorts with `precedes`.
public enum DueOrder {
    /// Whether `left` comes before `right` in the due order.
    public static func precedes(_ left: DuePosition, _ right: DuePosition) -> Bool { left < right }
}
