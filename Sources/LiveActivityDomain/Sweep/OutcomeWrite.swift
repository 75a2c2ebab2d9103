/// One write the sweep owes the database after an answer (`OutcomeRules` decides it, the store
/// applies it), about one push target. Every write that keeps a target is skipped when its
/// registration was registered again after it was selected (`selectedRegisteredAt`): the new
/// registration is due at once and keeps that. A deletion of a wake target deletes its
/// registration with every target of it (`PushKind.ownsRegistration`); of any other kind, that
/// target alone.
public enum OutcomeWrite: Sendable, Equatable {
    /// 200: pushed; failures reset.
    case delivered(TargetKey, selectedRegisteredAt: Int64, at: Int64, nextPushAt: Int64)
    /// Kept after a failure: failures + 1, the reason, and when to try again.
    case failed(TargetKey, selectedRegisteredAt: Int64, reason: String, nextPushAt: Int64)
    /// Kept by the mass-deletion guard as a fresh deployment's junk (SPEC 5): failures + 1, its
    /// holds + 1, the reason, and a back-off before the next try.
    case heldByGuard(TargetKey, selectedRegisteredAt: Int64, reason: String, nextPushAt: Int64)
    /// Kept, untried or its answer set aside, while a fault of its scope lasts: the reason and
    /// when to try again; its failures are its own and stay as they are.
    case held(TargetKey, selectedRegisteredAt: Int64, reason: String, nextPushAt: Int64)
    /// Not pushed: the cadence withheld the wake (SPEC 5, "Cadence"); due again at its next tick.
    /// Its failures and last reason stay as they are.
    case withheld(TargetKey, selectedRegisteredAt: Int64, nextPushAt: Int64)
    /// Deleted, unless registered again after `registeredAtOrBefore`.
    case delete(TargetKey, registeredAtOrBefore: Int64)
    /// 410: deleted unless registered again after APNs's timestamp; a target kept that way is
    /// pushed again one interval later, not every minute, with the reason recorded.
    case unregistered(TargetKey, registeredAtOrBefore: Int64, selectedRegisteredAt: Int64, reason: String, nextPushAt: Int64)

    /// The target the write is about.
    public var key: TargetKey {
        switch self {
        case .delivered(let key, _, _, _), .failed(let key, _, _, _), .heldByGuard(let key, _, _, _),
            .held(let key, _, _, _), .withheld(let key, _, _),
            .delete(let key, _), .unregistered(let key, _, _, _, _):
            key
        }
    }
}
