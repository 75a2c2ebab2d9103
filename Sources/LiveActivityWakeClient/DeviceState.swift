/// What the phone saw just now (SPEC 3 "Device state"), sent with a registration or an ack so
/// the backend spends wakes where they can help: none for an activity that is gone, none while
/// Background App Refresh is off, fewer in Low Power Mode.
///
/// The library links no UIKit or ActivityKit: the app reads the three values itself (docs/APP.md
/// shows the lines) and hands them here. Each is optional: nil is "unknown", and the client leaves
/// it out of the body, so the backend keeps what it knew (a registration, which replaces its
/// registration whole, resets what it does not send).
public struct DeviceState: Sendable, Hashable {
    /// The app's running Live Activities of the registration's type: `Activity<…>.activities`
    /// whose `activityState` is `.active` or `.stale` (past its `staleDate`, still on screen: a
    /// wake is what it needs). 0 to 64 (``activitiesRange``); `0` in an ack says the
    /// app woke and found nothing to update, which ends the wake pushes; a registration needs 1
    /// or more (an app registers while an activity runs).
    public var activities: Int?
    /// `UIApplication.backgroundRefreshStatus`: anything but ``BackgroundRefresh/available``
    /// pauses the wake pushes (they cannot launch the app) until a call says available again.
    public var backgroundRefresh: BackgroundRefresh?
    /// `ProcessInfo.isLowPowerModeEnabled`: true doubles the interval until a call says false.
    public var lowPower: Bool?

    public init(activities: Int? = nil, backgroundRefresh: BackgroundRefresh? = nil, lowPower: Bool? = nil) {
        self.activities = activities
        self.backgroundRefresh = backgroundRefresh
        self.lowPower = lowPower
    }

    /// The counts of ``activities`` the backend takes (SPEC 3); a registration's starts at 1.
    public static let activitiesRange = 0...64

    /// The refusal of a value the backend would answer with a 400, before anything is sent.
    func refusal(atRegistration: Bool) -> WakeClientError? {
        guard let activities else { return nil }
        let lowest = atRegistration ? 1 : Self.activitiesRange.lowerBound
        guard activities < lowest || activities > Self.activitiesRange.upperBound else { return nil }
        let range = "\(lowest) to \(Self.activitiesRange.upperBound)"
        return .invalidDeviceState(
            reason: "activities must be a whole number from \(range)" + (atRegistration ? " at registration" : "")
                + ", not \(activities)")
    }
}

/// `UIApplication.backgroundRefreshStatus` as the backend names it (SPEC 3): one case for each
/// of UIKit's, so the app maps it with a plain `switch`.
public enum BackgroundRefresh: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The app may be woken in the background.
    case available
    /// The user turned Background App Refresh off, for the app or the whole phone.
    case denied
    /// Off by something the user cannot change (a management profile, parental controls).
    case restricted

    public var description: String { rawValue }
}

/// Why the backend does not push wakes to a registration now (the 200's `paused`, SPEC 3): the
/// app can tell the user what to turn on. Not an enum, so a reason a newer backend adds still
/// comes through, by its name.
public struct WakePauseReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// Background App Refresh is not available: a wake could not launch the app. Widget pushes
    /// go on (WidgetKit reloads without the app); the wakes resume once a registration or ack
    /// says ``BackgroundRefresh/available``.
    public static let backgroundRefresh = WakePauseReason(rawValue: "backgroundRefresh")

    public var description: String { rawValue }
}
