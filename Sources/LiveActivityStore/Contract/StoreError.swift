import LiveActivityDomain

/// Why the store refused a write that the database itself would have taken.
public enum StoreError: Error, Equatable, Sendable {
    /// The registration table holds `LIVEACTIVITY_MAX_REGISTRATIONS` rows; nothing is evicted.
    case capacityReached(limit: Int)
    /// `LIVEACTIVITY_MAX_UNPROVEN` registrations of `environment` were never answered 200 (SPEC
    /// 5, guard): a new token there is refused; a stored one may still refresh, and the other
    /// environment takes new tokens as before.
    case unprovenCapacityReached(limit: Int, environment: APNsEnvironment)
}
