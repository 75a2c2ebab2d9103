/// What the backend says applies to a registration (SPEC 3: the 200's body).
public struct WakeRegistration: Sendable, Hashable {
    /// The seconds between wake-ups the backend uses: the asked `interval` clamped to the
    /// operator's bounds. Nil when the app asked for none (the activity type's interval applies).
    public let interval: Int?
    /// The seconds between the widget's reload pushes, when the backend registered a
    /// `widgetPushToken` and says so; nil from a backend that does not serve widgets yet.
    public let widgetInterval: Int?
    /// Why the backend pushes no wakes now, from the ``DeviceState`` sent
    /// (``WakePauseReason/backgroundRefresh``); nil while it wakes the app (and from a backend
    /// that predates device state).
    public let paused: WakePauseReason?

    public init(interval: Int?, widgetInterval: Int?, paused: WakePauseReason? = nil) {
        self.interval = interval
        self.widgetInterval = widgetInterval
        self.paused = paused
    }
}
