import LiveActivityDomain

/// An app's name as SQL writes it, from `AppName` (not a `'default'` literal per statement): a
/// literal, not a bind, so a statement still matches the partial indexes written on it.
extension AppName {
    /// `'default'`.
    public var sqlLiteral: String { "'\(rawValue)'" }
}
