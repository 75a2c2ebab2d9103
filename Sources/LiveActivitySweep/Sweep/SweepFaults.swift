import LiveActivityDomain

/// The faults of one sweep, by environment (SPEC 5, "Faults are scoped"): the first fault of an
/// environment stops it, and every push it touches is counted against it here, in `touch` alone
/// (a row answered alike or cancelled, a deletion the guard set aside, the unread rows held at the
/// end). The guard's own faults, raised once the answers are in, are kept after them.
struct SweepFaults: Sendable {
    private var stopping: [APNsEnvironment: SweepFault] = [:]
    private var guarded: [SweepFault] = []

    /// The fault that stopped `environment`, if one did.
    subscript(_ environment: APNsEnvironment) -> SweepFault? { stopping[environment] }

    /// Records `fault` as its environment's, unless one is already there; true when it is new.
    mutating func raise(_ fault: SweepFault) -> Bool {
        guard stopping[fault.environment] == nil else { return false }
        stopping[fault.environment] = fault
        return true
    }

    /// Counts `pushes` more against the fault of `environment`.
    mutating func touch(_ environment: APNsEnvironment, pushes: Int = 1) {
        stopping[environment]?.pushes += pushes
    }

    /// Adds the guard's faults (they carry their own counts).
    mutating func addGuarded(_ faults: [SweepFault]) { guarded += faults }

    /// The faults that stopped an environment's sending (not an unreachable host, whose rows back
    /// off one by one): their rows not yet read are held in one statement at the end.
    var stoppedEnvironments: [SweepFault] {
        stopping.values.filter { $0.kind != .unreachable }.sorted { $0.environment.rawValue < $1.environment.rawValue }
    }

    /// What the summary reports: the environments' faults by name, then the guard's (an
    /// unreachable host is the only kind a guard's fault can follow in one environment).
    var reported: [SweepFault] {
        stopping.values.sorted { $0.environment.rawValue < $1.environment.rawValue } + guarded
    }

    /// The environments' faults, as the guard's ruling takes them.
    var byEnvironment: [APNsEnvironment: SweepFault] { stopping }
}
