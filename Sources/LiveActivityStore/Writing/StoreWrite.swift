import LiveActivityDomain

/// One write a responder worker hands to the `RegistrationWriter`, and what it did.
public enum StoreWrite: Sendable {
    /// Register or refresh (SPEC 3). A new token is refused at `caps`; a stored one refreshes.
    case register(NewRegistration, caps: RegistrationCaps)
    case unregister(PushToken, app: AppName = .defaultApp)
    /// The app woke from a push (`POST /wakeup/ack`) at `now`, judged by `policy`'s intervals,
    /// with what it reported (SPEC 3, "Device state").
    case acknowledge(PushToken, app: AppName = .defaultApp, now: Int64, policy: IntervalPolicy, report: AckReport = .none)

    /// The write's answer.
    public enum Outcome: Sendable, Equatable {
        case registered(RegisterResult)
        case unregistered(found: Bool)
        /// The ack's verdict; `nil` while it waits for the push on its way (counted when the
        /// sweep judges it).
        case acknowledged(AckOutcome?)
    }

    /// What `register` did.
    public enum RegisterResult: Equatable, Sendable {
        case created
        case refreshed
    }

    /// The registration the write is about.
    var key: RegistrationKey {
        switch self {
        case .register(let registration, _): registration.key
        case .unregister(let token, let app), .acknowledge(let token, let app, _, _, _): RegistrationKey(app: app, token: token)
        }
    }
}

/// What an ack reported besides its token (SPEC 3, "Device state"): the device state it saw
/// (absent fields leave what is stored) and whether this wake's fetch found the data changed.
public struct AckReport: Sendable, Equatable {
    public var device: DeviceState
    public var changed: Bool?

    public init(device: DeviceState = .unknown, changed: Bool? = nil) {
        self.device = device
        self.changed = changed
    }

    /// A token-only ack, as every app sent before.
    public static let none = AckReport()
}

/// The caps a new registration must fit under (SPEC 3, 5): `LIVEACTIVITY_MAX_REGISTRATIONS` and
/// `LIVEACTIVITY_MAX_UNPROVEN`. A refresh of a stored token fits whatever the counts.
public struct RegistrationCaps: Sendable, Equatable {
    public var total: Int
    public var unproven: Int

    public init(total: Int, unproven: Int) {
        self.total = total
        self.unproven = unproven
    }
}
