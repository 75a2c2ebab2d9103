import LiveActivityDomain
import LiveActivityFigures

/// `liveactivity-sweep history`'s read (SPEC 7): a registration found by the whole token or a
/// prefix of it - its device token's, or its widget extension's - through a range on the tokens'
/// indexes, so it costs the same at 100,000 registrations as at ten; its targets' attempts from
/// their own rows.
extension DeviceHistory {
    /// The registration whose token (or a target's) starts with `prefix` (from `prefix(_:)`),
    /// with its targets' attempts.
    public static func lookup(_ prefix: String, in queries: any FigureQueries) throws -> Lookup {
        let tokens = try queries.tokens(withPrefix: prefix, limit: 2)
        guard let token = tokens.first else { return .notRegistered }
        guard tokens.count == 1 else { return .ambiguous(count: max(2, try queries.tokenCount(withPrefix: prefix))) }
        guard let registration = try queries.registration(token, attempts: true) else {
            return .notRegistered
        }
        return .found(DeviceHistory(registration: registration))
    }
}
