import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The app's side of the wake-up backend (SPEC 3 and 7): registers the device for wake-up
/// pushes while a Live Activity runs, acknowledges each wake, and unregisters when it ends.
///
/// ```swift
/// let client = WakeClient(baseURL: URL(string: "https://wakeup.example.org")!, pathPrefix: "/prod")
/// let applied = try await client.register(deviceToken: DeviceToken(deviceTokenData), interval: 900)
/// ```
///
/// Call ``register(deviceToken:activityType:interval:widgetPushToken:widgetInterval:deviceState:)``
/// once when the activity starts (and again only when something in it changes: a registration is
/// pushed at the next sweep, so registering on every wake costs a push each time), then
/// ``acknowledgeWake(deviceToken:deviceState:changed:)`` in each wake, and
/// ``unregister(deviceToken:)`` when the activity ends. Both of the first take the
/// ``DeviceState`` the app reads (running activities, Background App Refresh, Low Power Mode).
/// Every answer is read: a 200's intervals come back, any other answer is a ``WakeClientError``;
/// a 429 or 503 is retried as ``WakeRetryPolicy`` says. The client keeps no state between calls and is `Sendable`.
public struct WakeClient: Sendable {
    /// The backend's URL without the API's path, as `https://wakeup.example.org`.
    public let baseURL: URL
    /// The location the operator put the API under (`/prod`, `/dev`), or "" for `/wakeup` itself.
    public let pathPrefix: String
    /// The environment each registration names.
    public let environment: WakeEnvironment
    /// When a 429 or 503 is retried.
    public let retryPolicy: WakeRetryPolicy
    /// How long one request may take, in seconds (URLRequest's `timeoutInterval`).
    public let requestTimeout: Double
    let transport: any WakeTransport
    let log: (@Sendable (String) -> Void)?
    let sleep: @Sendable (Double) async throws -> Void
    /// A draw from 0 up to 1 for each retry's jitter (``WakeRetryPolicy/jitter``).
    let spread: @Sendable () -> Double

    /// A client for the backend at `baseURL` + `pathPrefix` (`https://wakeup.example.org` and
    /// `/prod` send `POST https://wakeup.example.org/prod/wakeup`). The base URL must be `https`
    /// (plain `http` only to a loopback host, for tests); every call to another throws
    /// ``WakeClientError/insecureBaseURL(_:)`` and sends nothing.
    ///
    /// - Parameters:
    ///   - environment: the APNs environment to register in; ``WakeEnvironment/fromBuild`` by
    ///     default (read its caveat).
    ///   - transport: what sends the requests; ``defaultTransport`` by default (a URLSession that
    ///     follows no redirect to another host).
    ///   - retryPolicy: retries of a 429 or 503.
    ///   - requestTimeout: the bound of one request, in seconds (a wake has about 30 in all).
    ///   - log: receives one line per request and retry, the token by its first 8 hex digits.
    public init(
        baseURL: URL, pathPrefix: String = "", environment: WakeEnvironment = .fromBuild,
        transport: any WakeTransport = WakeClient.defaultTransport, retryPolicy: WakeRetryPolicy = .standard,
        requestTimeout: Double = 15, log: (@Sendable (String) -> Void)? = nil
    ) {
        self.init(
            baseURL: baseURL, pathPrefix: pathPrefix, environment: environment, transport: transport,
            retryPolicy: retryPolicy, requestTimeout: requestTimeout, log: log,
            sleep: { seconds in try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000)) })
    }

    /// The same with the wait between retries given (tests observe the waits without taking
    /// them), and the draw that spreads them (`spread`, from 0 up to 1).
    init(
        baseURL: URL, pathPrefix: String, environment: WakeEnvironment, transport: any WakeTransport,
        retryPolicy: WakeRetryPolicy, requestTimeout: Double, log: (@Sendable (String) -> Void)?,
        sleep: @escaping @Sendable (Double) async throws -> Void,
        spread: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.spread = spread
        self.baseURL = baseURL
        var prefix = pathPrefix
        while prefix.hasSuffix("/") { prefix.removeLast() }
        if !prefix.isEmpty && !prefix.hasPrefix("/") { prefix = "/" + prefix }
        self.pathPrefix = prefix
        self.environment = environment
        self.transport = transport
        self.retryPolicy = retryPolicy
        self.requestTimeout = requestTimeout
        self.log = log
        self.sleep = sleep
    }

    /// Registers the device for wake-ups, or refreshes its registration (`POST <prefix>/wakeup`).
    ///
    /// A refresh replaces the registration whole: its 8 hours start again, and it is pushed at
    /// the next sweep. So call it when the Live Activity starts and when its settings change,
    /// not on every wake.
    ///
    /// - Parameters:
    ///   - deviceToken: the token of `didRegisterForRemoteNotificationsWithDeviceToken`.
    ///   - activityType: sets the backend's interval (`charging`: 5 minutes).
    ///   - interval: the seconds between wakes the app wants (whole, 1 to 86400); the backend
    ///     clamps it to its bounds and answers what applies.
    ///   - widgetPushToken: the widget extension's token (`WidgetPushInfo.token`) while a push
    ///     widget is installed; leaving it out removes the registration's widget pushes.
    ///   - widgetInterval: the seconds between widget reload pushes (sent with `widgetPushToken` only).
    ///   - deviceState: what the phone sees now; its nil fields are not sent. `activities` is 1
    ///     or more here (the app registers while an activity runs).
    /// - Returns: the intervals the backend applies, and whether it pauses the wakes.
    /// - Throws: ``WakeClientError`` for any answer but a 200;
    ///   ``WakeClientError/invalidDeviceState(reason:)``, with nothing sent, for `activities`
    ///   outside 1 to 64.
    @discardableResult
    public func register(
        deviceToken: DeviceToken, activityType: WakeActivityType = .charging, interval: Int? = nil,
        widgetPushToken: DeviceToken? = nil, widgetInterval: Int? = nil, deviceState: DeviceState? = nil
    ) async throws -> WakeRegistration {
        if let refusal = deviceState?.refusal(atRegistration: true) {
            log?("register \(deviceToken): \(refusal)")
            throw refusal
        }
        let body = RegisterBody(
            pushToken: deviceToken.hex, activityType: activityType.rawValue, environment: environment.wireValue,
            interval: interval, widgetPushToken: widgetPushToken?.hex,
            widgetInterval: widgetPushToken == nil ? nil : widgetInterval, activities: deviceState?.activities,
            backgroundRefresh: deviceState?.backgroundRefresh?.rawValue, lowPower: deviceState?.lowPower)
        let answer = try await call("/wakeup", body: body, what: "register \(deviceToken)")
        return WakeRegistration(
            interval: answer.interval, widgetInterval: answer.widgetInterval,
            paused: answer.paused.map(WakePauseReason.init(rawValue:)))
    }

    /// Tells the backend the app woke from a wake-up push (`POST <prefix>/wakeup/ack`).
    ///
    /// Without `changed`, call it first in the wake (before fetching anything): the backend
    /// measures the delay from APNs's acceptance to this call, so a later ack measures the app's
    /// own work as well as delivery. `changed` is known only once the fetch is done: an ack that
    /// says it comes right after the fetch (its delay then counts the fetch too). A wake that
    /// finds no running activity acks with `activities: 0` and stops there: the backend stops
    /// waking for it. An app that never calls it loses only the delivery figures and the
    /// backend's sparing of wakes.
    ///
    /// - Parameters:
    ///   - deviceState: what the phone sees now; its nil fields are not sent.
    ///   - changed: whether this wake's fetch brought data newer than the activity showed (the
    ///     carmaker's own timestamp compared; the timestamp is not sent). Wakes that bring nothing
    ///     new let the backend wake less often; nil: not sent.
    /// - Throws: ``WakeClientError`` for any answer but a 200;
    ///   ``WakeClientError/invalidDeviceState(reason:)``, with nothing sent, for `activities`
    ///   outside 0 to 64.
    public func acknowledgeWake(deviceToken: DeviceToken, deviceState: DeviceState? = nil, changed: Bool? = nil)
        async throws
    {
        if let refusal = deviceState?.refusal(atRegistration: false) {
            log?("ack \(deviceToken): \(refusal)")
            throw refusal
        }
        let body = AckBody(
            pushToken: deviceToken.hex, activities: deviceState?.activities,
            backgroundRefresh: deviceState?.backgroundRefresh?.rawValue, lowPower: deviceState?.lowPower, changed: changed)
        _ = try await call("/wakeup/ack", body: body, what: "ack \(deviceToken)")
    }

    /// Ends the device's registration (`POST <prefix>/wakeup/unregister`): call it when the Live
    /// Activity ends. A token that is not registered is answered 200 too.
    public func unregister(deviceToken: DeviceToken) async throws {
        _ = try await call(
            "/wakeup/unregister", body: TokenBody(pushToken: deviceToken.hex), what: "unregister \(deviceToken)")
    }

    /// The URL of `route` (`/wakeup/ack`) under the base URL and the prefix.
    public func url(for route: String) -> URL {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return URL(string: base + pathPrefix + route) ?? baseURL.appendingPathComponent(pathPrefix + route)
    }
}
