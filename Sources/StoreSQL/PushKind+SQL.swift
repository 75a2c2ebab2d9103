import LiveActivityDomain

/// The kinds as SQL writes them, from `PushKind` (not a `'wake'` literal per statement): a
/// literal, not a bind, so a statement still matches the partial indexes written on it.
extension PushKind {
    /// `'wake'`.
    public var sqlLiteral: String { "'\(name)'" }

    /// `push_kind = 'wake'`, for a column `push_kind` (or `alias.push_kind`).
    public func sqlIs(alias: String? = nil) -> String { "\(alias.map { $0 + "." } ?? "")push_kind = \(sqlLiteral)" }

    /// `push_kind <> 'wake'`.
    public var sqlIsNot: String { "push_kind <> \(sqlLiteral)" }

    /// The SQL that keeps the kinds this build pushes: a kind a newer build stored is left as it is.
    public static let sqlKnown = "push_kind IN (" + all.map(\.sqlLiteral).joined(separator: ", ") + ")"
}
