import LiveActivityDomain

/// One write a responder worker hands to the `RegistrationWriter`, and what it did.
public enum StoreWrite: Sendable {
    /// `interval`: the seconds the app asked for, nil for none.
    case register(
        PushToken, type: ActivityType, environment: APNsEnvironment, now: Int64, expiresAt: Int64, cap: Int,
        interval: Int? = nil)
    case unregister(PushToken)
    /// The app woke from a push (`POST /wakeup/ack`), judged by `policy`'s intervals.
    case acknowledge(PushToken, now: Int64, policy: IntervalPolicy)

    /// The write's answer: `register`'s result, or whether `unregister` found the token.
    public enum Outcome: Sendable, Equatable {
        case registered(RegistrationStore.RegisterResult)
        case unregistered(found: Bool)
        case acknowledged(AckOutcome)
    }

    /// Runs the write inside the transaction the caller holds.
    func apply(to store: RegistrationStore) throws -> Outcome {
        switch self {
        case .register(let token, let type, let environment, let now, let expiresAt, let cap, let interval):
            .registered(
                try store.registerInTransaction(
                    token, type: type, environment: environment, now: now, expiresAt: expiresAt, cap: cap, interval: interval))
        case .unregister(let token):
            .unregistered(found: try store.unregisterInTransaction(token))
        case .acknowledge(let token, let now, let policy):
            .acknowledged(try store.acknowledgeInTransaction(token, now: now, policy: policy))
        }
    }
}
