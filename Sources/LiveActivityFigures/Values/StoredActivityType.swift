import LiveActivityDomain

/// An activity type as the delivery figures read it back: one this build knows, or the stored
/// name of one it does not (a newer build's, or planted). The wakes' windows list every type
/// with figures, so an unknown one is shown as stored (escaped and cut), after the known ones.
public enum StoredActivityType: Sendable, Hashable {
    case known(ActivityType)
    case unknown(String)

    public init(stored name: String) {
        self = ActivityType(rawValue: name).map { .known($0) } ?? .unknown(name)
    }

    /// The name as stored.
    public var name: String {
        switch self {
        case .known(let type): type.rawValue
        case .unknown(let name): name
        }
    }
}
