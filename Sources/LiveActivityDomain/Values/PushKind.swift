/// What kind of push a target receives (SPEC 5.5): the one value that says everything a kind
/// differs in - its `apns-push-type`, the suffix its topic adds to the bundle id, the priority
/// and expiration headers it sends or leaves out, its payload, the setting of its shortest
/// interval, whether the app acknowledges it, and whether its pushes are spread per target.
/// A third kind (a ControlWidget's `controls`) is one value more here, its stand-in check and
/// its tests.
public struct PushKind: Sendable, Hashable, CustomStringConvertible {
    /// Its name where it is stored and shown (`wake`, `widgets`): a key of the database, a label.
    public let name: String
    /// `apns-push-type`.
    public let pushType: String
    /// Added to the app's bundle id to make `apns-topic` (APNs refuses a widgets push to the
    /// plain bundle id with DeviceTokenNotForTopic).
    public let topicSuffix: String
    /// `apns-priority`, nil to send none (a widgets push: Apple's own request has none).
    public let priority: Int?
    /// Whether `apns-expiration` (now + the target's interval) is sent: an expiration is
    /// reported to stop widget pushes working.
    public let expires: Bool
    /// The JSON body, the same for every push of the kind.
    public let payload: String
    /// The setting of its shortest interval, nil when the activity type's applies (a wake).
    public let intervalSetting: String?
    /// That setting's default, seconds (nil with the setting).
    public let defaultIntervalSeconds: Int?
    /// Whether the app acknowledges its pushes (`POST /wakeup/ack`): wakes only.
    public let acknowledged: Bool
    /// Whether consecutive pushes of a target are spread up to a tenth of the interval (plus a
    /// minute), so devices do not reload at the same minute and load the carmaker together.
    public let spread: Bool
    /// The API's fields of a target of this kind (SPEC 3): its token's and its asked interval's;
    /// nil for a wake, whose are the registration's own (`pushToken`, `interval`).
    public let tokenField: String?
    public let intervalField: String?

    /// The silent background push that wakes the app (SPEC 5.5); the app looks for
    /// `liveActivityWakeup`.
    public static let wake = PushKind(
        name: "wake", pushType: "background", topicSuffix: "", priority: 5, expires: true,
        payload: #"{"aps":{"content-available":1},"liveActivityWakeup":true}"#, intervalSetting: nil,
        defaultIntervalSeconds: nil, acknowledged: true, spread: false, tokenField: nil, intervalField: nil)

    /// The iOS 26 WidgetKit push that tells the widget extension to reload its timeline.
    public static let widgets = PushKind(
        name: "widgets", pushType: "widgets", topicSuffix: ".push-type.widgets", priority: nil, expires: false,
        payload: #"{"aps":{"content-changed":true}}"#, intervalSetting: "LIVEACTIVITY_INTERVAL_WIDGETS",
        defaultIntervalSeconds: 1800, acknowledged: false, spread: true, tokenField: "widgetPushToken",
        intervalField: "widgetInterval")

    /// Every kind this build sends, in the order figures list them.
    public static let all: [PushKind] = [.wake, .widgets]

    /// The kinds a registration may add to its wake target, by their API fields.
    public static var others: [PushKind] { all.filter { $0.tokenField != nil } }

    /// The kind of a stored or shown name; nil for a name this build does not know.
    public init?(name: String) {
        guard let kind = Self.all.first(where: { $0.name == name }) else { return nil }
        self = kind
    }

    private init(
        name: String, pushType: String, topicSuffix: String, priority: Int?, expires: Bool, payload: String,
        intervalSetting: String?, defaultIntervalSeconds: Int?, acknowledged: Bool, spread: Bool, tokenField: String?,
        intervalField: String?
    ) {
        self.name = name
        self.pushType = pushType
        self.topicSuffix = topicSuffix
        self.priority = priority
        self.expires = expires
        self.payload = payload
        self.intervalSetting = intervalSetting
        self.defaultIntervalSeconds = defaultIntervalSeconds
        self.acknowledged = acknowledged
        self.spread = spread
        self.tokenField = tokenField
        self.intervalField = intervalField
    }

    /// Whether its target is the registration itself (a wake): the registration is its device
    /// token, so deleting this target (410, BadDeviceToken) deletes the registration and every
    /// target of it; any other kind's target goes alone.
    public var ownsRegistration: Bool { self == .wake }

    /// `apns-topic` for the app of `bundleID`.
    public func topic(forBundleID bundleID: String) -> String { bundleID + topicSuffix }

    public var description: String { name }

    /// Kinds are told apart by name alone.
    public static func == (left: PushKind, right: PushKind) -> Bool { left.name == right.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
