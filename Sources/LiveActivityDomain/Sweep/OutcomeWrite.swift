/// One write the sweep owes the database after an answer (`OutcomeRules` decides it, the store
/// applies it). Every write that keeps a row is skipped when the row was registered again after
/// it was selected (`selectedRegisteredAt`): the new registration is due at once and keeps that.
public enum OutcomeWrite: Sendable, Equatable {
    /// 200: pushed; failures reset.
    case delivered(PushToken, selectedRegisteredAt: Int64, at: Int64, nextPushAt: Int64)
    /// Kept after a failure: failures + 1, the reason, and when to try again.
    case failed(PushToken, selectedRegisteredAt: Int64, reason: String, nextPushAt: Int64)
    /// Kept by the mass-deletion guard as a fresh deployment's junk (SPEC 5): failures + 1, its
    /// holds + 1, the reason, and a back-off before the next try.
    case heldByGuard(PushToken, selectedRegisteredAt: Int64, reason: String, nextPushAt: Int64)
    /// Kept, untried or its answer set aside, while a fault of its environment lasts: the
    /// reason and when to try again; its failures are its own and stay as they are.
    case held(PushToken, selectedRegisteredAt: Int64, reason: String, nextPushAt: Int64)
    /// Deleted, unless registered again after `registeredAtOrBefore`.
    case delete(PushToken, registeredAtOrBefore: Int64)
    /// 410: deleted unless registered again after APNs's timestamp; a row kept that way is
    /// pushed again one interval later, not every minute, with the reason recorded.
    case unregistered(PushToken, registeredAtOrBefore: Int64, selectedRegisteredAt: Int64, reason: String, nextPushAt: Int64)

    /// The registration the write is about.
    public var token: PushToken {
        switch self {
        case .delivered(let token, _, _, _), .failed(let token, _, _, _), .heldByGuard(let token, _, _, _),
            .held(let token, _, _, _),
            .delete(let token, _), .unregistered(let token, _, _, _, _):
            token
        }
    }
}
