import LiveActivityDomain
import LiveActivityFigures

/// `liveactivity-sweep history`'s read (SPEC 7): a registration found by the whole token or a
/// prefix of it through a range on the tokens' index, so it costs the same at 100,000
/// registrations as at ten; its attempts from its own row.
extension DeviceHistory {
    /// The registration whose token starts with `prefix` (from `prefix(_:)`) and its attempts.
    public static func lookup(_ prefix: String, in queries: any FigureQueries) throws -> Lookup {
        let tokens = try queries.tokens(withPrefix: prefix, limit: 2)
        guard let token = tokens.first else { return .notRegistered }
        guard tokens.count == 1 else { return .ambiguous(count: max(2, try queries.tokenCount(withPrefix: prefix))) }
        guard let (registration, attempts) = try queries.registrationAndAttempts(try StoredValue.token(token)) else {
            return .notRegistered
        }
        return .found(DeviceHistory(registration: registration, attempts: attempts))
    }
}
