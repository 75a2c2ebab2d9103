/// What the app last said it saw on the phone (SPEC 3, "Device state"), coarse on purpose: how
/// many of its Live Activities run, whether Background App Refresh can launch it, and Low Power
/// Mode. Each is nil until the app says it (an app that sends none is served as before). Only
/// the latest value of each is kept, with the wake target; no history of them.
public struct DeviceState: Sendable, Equatable, Hashable {
    /// The app's running Live Activities of the registration's type (0: none to update).
    public var activities: Int?
    public var backgroundRefresh: BackgroundRefresh?
    public var lowPower: Bool?

    /// What a request may say of `activities`: a phone runs a handful at most; 64 leaves room.
    public static let activityRange = 0...64

    public init(activities: Int? = nil, backgroundRefresh: BackgroundRefresh? = nil, lowPower: Bool? = nil) {
        self.activities = activities
        self.backgroundRefresh = backgroundRefresh
        self.lowPower = lowPower
    }

    /// Nothing said.
    public static let unknown = DeviceState()

    /// `self` with what `update` says, where it says something (an ack: absent fields leave
    /// what the backend knows as it is).
    public func merging(_ update: DeviceState) -> DeviceState {
        DeviceState(
            activities: update.activities ?? activities, backgroundRefresh: update.backgroundRefresh ?? backgroundRefresh,
            lowPower: update.lowPower ?? lowPower)
    }

    /// Whether it says anything at all.
    public var isEmpty: Bool { self == .unknown }
}

/// `UIApplication.backgroundRefreshStatus`, as the app sends it (SPEC 3).
public enum BackgroundRefresh: String, Sendable, CaseIterable, Hashable {
    case available
    case denied
    case restricted
}
