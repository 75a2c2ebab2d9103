/// Why the store refused a write that the database itself would have taken.
public enum StoreError: Error, Equatable, Sendable {
    /// The registration table holds `LIVEACTIVITY_MAX_REGISTRATIONS` rows; nothing is evicted.
    case capacityReached(limit: Int)
}
