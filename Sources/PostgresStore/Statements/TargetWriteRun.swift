import LiveActivityDomain
import LiveActivityStore

/// Target writes that one statement per kind of write may apply together: deletions, then
/// refreshes, then insertions, which is the order they were given in as long as no target is
/// written again by a write that does not come later in that order (a deletion then an insertion
/// of one target, a widget extension's new token, stays in one run).
struct TargetWriteRun {
    struct Refresh {
        var key: TargetKey
        var facts: RegistrationFacts
        var requestedInterval: Int?
        var keepsProof: Bool
        var cadence: CadenceState
    }

    var deletes: [TargetKey] = []
    var refreshes: [Refresh] = []
    var inserts: [NewTarget] = []
    /// The latest step (0 delete, 1 refresh, 2 insert) that wrote each target in this run.
    private var steps: [TargetKey: Int] = [:]

    /// `writes` in runs, in order.
    static func cut(_ writes: [TargetWrite]) -> [TargetWriteRun] {
        var runs = [TargetWriteRun()]
        for write in writes {
            let (key, step) = step(write)
            if let earlier = runs[runs.count - 1].steps[key], earlier >= step { runs.append(TargetWriteRun()) }
            runs[runs.count - 1].add(write, key: key, step: step)
        }
        return runs
    }

    private static func step(_ write: TargetWrite) -> (TargetKey, Int) {
        switch write {
        case .delete(let key): (key, 0)
        case .refresh(let key, _, _, _, _): (key, 1)
        case .insert(let target): (target.key, 2)
        }
    }

    private mutating func add(_ write: TargetWrite, key: TargetKey, step: Int) {
        steps[key] = step
        switch write {
        case .delete(let key): deletes.append(key)
        case .refresh(let key, let facts, let requested, let keepsProof, let cadence):
            refreshes.append(
                Refresh(key: key, facts: facts, requestedInterval: requested, keepsProof: keepsProof, cadence: cadence))
        case .insert(let target): inserts.append(target)
        }
    }
}
