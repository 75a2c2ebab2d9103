import LiveActivityDomain
import LiveActivityFigures

/// `liveactivity-sweep history`'s read (SPEC 7): a registration found by the whole token or a
/// prefix of it - its device token's, or its widget extension's - through a range on the tokens'
/// indexes, so it costs the same at 100,000 registrations as at ten; its targets' attempts from
/// their own rows.
extension DeviceHistory {
    /// The registration whose token (or a target's) starts with `prefix` (from `prefix(_:)`),
    /// with its targets' attempts.
    /// `app`, when given, picks that app's registration of a token registered for several.
    public static func lookup(_ prefix: String, app: AppName? = nil, in queries: any FigureQueries) throws -> Lookup {
        // In the order of token then app: a second token shows within the first few rows.
        var keys = try queries.tokens(withPrefix: prefix, limit: 64)
        if let app { keys.removeAll { $0.app != app } }
        guard let first = keys.first else { return .notRegistered }
        guard keys.allSatisfy({ $0.token == first.token }) else {
            return .ambiguous(count: max(2, try queries.tokenCount(withPrefix: prefix)))
        }
        guard keys.count == 1 else { return .severalApps(keys.map(\.app)) }
        guard let registration = try queries.registration(first, attempts: true) else {
            return .notRegistered
        }
        return .found(DeviceHistory(registration: registration))
    }
}
