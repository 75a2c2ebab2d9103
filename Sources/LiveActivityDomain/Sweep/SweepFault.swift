/// A fault that stopped a sweep's pushes to one APNs environment, or to one kind of push there
/// (SPEC 5, "Faults are scoped"): the rest goes on, and the fault is reported once, with how many
/// pushes it touched.
public struct SweepFault: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// Our key, team, topic or host is wrong for this environment.
        case configuration
        /// APNs answered in a way that is the same for every push (a bad header, token updates
        /// too often): nothing more to gain by sending.
        case provider
        /// The mass-deletion guard: BadDeviceToken from most of an environment means a wrong host
        /// or key, so nothing was deleted for it.
        case guarded = "guard"
        /// No connection could be made to the environment's host (network, DNS, TLS): the pushes
        /// back off like any connection failure.
        case unreachable
    }

    public var environment: APNsEnvironment
    /// The one kind of push it stopped (a topic fault), nil for every kind of the environment.
    public var pushKind: PushKind?
    public var kind: Kind
    /// From the bounded vocabulary of reasons: APNs's documented reason, a libcurl code's name.
    public var reason: String
    /// Pushes the fault touched: the one that revealed it, those answered alike and those not sent.
    public var pushes: Int
    /// Of `pushes`, the registrations deleted all the same: the guard's never-proven rows at
    /// their third hold (SPEC 5), which the line must not call kept.
    public var removed = 0
    /// Whether the rows it held back off (interval x 2^(failures-1)) rather than wait one
    /// interval: an unreachable host's, and the guard's in a scope that never delivered.
    public var backsOff = false
    /// The app whose pushes it stopped (SPEC 6: faults are an app's).
    public var app: AppName
    /// What the operator should check (fixed text, no addresses or tokens).
    public var advice: String

    public init(
        environment: APNsEnvironment, pushKind: PushKind? = nil, kind: Kind, reason: String, pushes: Int = 0, advice: String,
        app: AppName = .defaultApp
    ) {
        self.app = app
        self.environment = environment
        self.pushKind = pushKind
        self.kind = kind
        self.reason = reason
        self.pushes = pushes
        self.advice = advice
        self.backsOff = kind == .unreachable
    }

    /// The guard's hold of a row never proven that deletes it instead (SPEC 5): junk held again
    /// and again would fill the unproven cap.
    public static let guardHoldsBeforeDeletion = 3

    /// What it stopped.
    public var scope: FaultScope { FaultScope(environment: environment, kind: pushKind, app: app) }

    /// Whether the sweep exits non-zero for it: every fault but an unreachable host, which is
    /// retried with back-off like any connection failure.
    public var failsTheRun: Bool { kind != .unreachable }

    /// The one line an operator reads.
    public var line: String {
        let kept = max(0, pushes - removed)
        var effect = backsOff ? "\(kept) pushes back off" : "\(kept) pushes wait one interval"
        if kind != .unreachable {
            effect +=
                removed > 0
                ? "; \(removed) registrations never answered 200 and held \(Self.guardHoldsBeforeDeletion) times were deleted"
                : "; no registration was removed for it"
        }
        let pushes = pushKind.map { "\($0.name) pushes to \(environment.rawValue)" } ?? "to \(environment.rawValue)"
        return
            "\(kind.rawValue) fault in \(scope): \(reason); \(advice). Sending \(pushes) stopped this sweep; \(effect)"
    }

    /// `sandbox:BadEnvironmentKeyInToken:1000`, or `sandbox/widgets:BadTopic:3` for one kind,
    /// after `other-app/` for an app other than the default one, for the summary line.
    public var summary: String {
        app.prefix("/") + "\(environment.rawValue)\(pushKind.map { "/" + $0.name } ?? ""):\(reason):\(pushes)"
    }
}

extension SweepFault {
    /// The kinds of fault that make the sweep exit non-zero, from the rule itself: a run that
    /// recorded one of them exited non-zero (the figures' "last sweep failed").
    public static var failingKinds: [String] {
        Kind.allCases.filter { SweepFault(environment: .production, kind: $0, reason: "", advice: "").failsTheRun }.map(
            \.rawValue)
    }
}
