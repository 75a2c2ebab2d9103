import LiveActivityDomain

/// The faults of one sweep, by scope (SPEC 5, "Faults are scoped"): the first fault of a scope
/// stops it - an app's environment, or one kind of push there - and every push it touches is counted
/// against it here, in `touch` alone (a target answered alike or cancelled, a deletion the guard
/// set aside, the unread targets held at the end). The guard's own faults, raised once the
/// answers are in, are kept after them.
struct SweepFaults: Sendable {
    private var stopping: [FaultScope: SweepFault] = [:]
    private var guarded: [SweepFault] = []

    /// The fault that stopped `scope`'s pushes: its app's environment's, else the kind's there. An
    /// unreachable host (the whole environment's, raised after a fault of the kind) does not hide
    /// the kind's own fault: its targets wait with that fault rather than back off.
    func covering(_ scope: PushScope) -> SweepFault? {
        let whole = stopping[scope.faultScope.wholeEnvironment]
        if let whole, whole.kind != .unreachable { return whole }
        return stopping[scope.faultScope] ?? whole
    }

    /// The fault that stopped `target`'s pushes, if one did.
    subscript(_ target: DueTarget) -> SweepFault? { covering(target.scope) }

    /// Records `fault` as its scope's, unless one covering it is already there; true when it is new.
    mutating func raise(_ fault: SweepFault) -> Bool {
        if stopping[fault.scope.wholeEnvironment] != nil || stopping[fault.scope] != nil { return false }
        stopping[fault.scope] = fault
        return true
    }

    /// Counts `pushes` more against the fault that covers `scope`'s pushes.
    mutating func touch(_ scope: PushScope, pushes: Int = 1) {
        guard let fault = covering(scope) else { return }
        stopping[fault.scope]?.pushes += pushes
    }

    /// Counts `pushes` more against the fault of `scope`.
    mutating func touch(_ scope: FaultScope, pushes: Int) {
        stopping[scope]?.pushes += pushes
    }

    /// Adds the guard's faults (they carry their own counts).
    mutating func addGuarded(_ faults: [SweepFault]) { guarded += faults }

    /// The faults that stopped a scope's sending (not an unreachable host, whose targets back off
    /// one by one): their targets not yet read are held in one statement per group at the end.
    var stoppedScopes: [SweepFault] {
        stopping.values.filter { $0.kind != .unreachable }.sorted { FaultScope.ordered($0.scope, $1.scope) }
    }

    /// What the summary reports: the scopes' faults in order, then the guard's (an unreachable
    /// host is the only kind a guard's fault can follow in one scope).
    var reported: [SweepFault] {
        stopping.values.sorted { FaultScope.ordered($0.scope, $1.scope) } + guarded
    }

    /// The scopes' faults, as the guard's ruling takes them.
    var byScope: [FaultScope: SweepFault] { stopping }
}
