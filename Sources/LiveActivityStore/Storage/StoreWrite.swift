import LiveActivityDomain

/// One write a responder worker hands to the `RegistrationWriter`, and what it did.
public enum StoreWrite: Sendable {
    case register(PushToken, type: ActivityType, environment: APNsEnvironment, now: Int64, expiresAt: Int64, cap: Int)
    case unregister(PushToken)

    /// The write's answer: `register`'s result, or whether `unregister` found the token.
    public enum Outcome: Sendable, Equatable {
        case registered(RegistrationStore.RegisterResult)
        case unregistered(found: Bool)
    }

    /// Runs the write inside the transaction the caller holds.
    func apply(to store: RegistrationStore) throws -> Outcome {
        switch self {
        case .register(let token, let type, let environment, let now, let expiresAt, let cap):
            .registered(
                try store.registerInTransaction(
                    token, type: type, environment: environment, now: now, expiresAt: expiresAt, cap: cap))
        case .unregister(let token):
            .unregistered(found: try store.unregisterInTransaction(token))
        }
    }
}
