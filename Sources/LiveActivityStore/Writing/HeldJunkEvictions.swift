import LiveActivityDomain

/// What a batch's new tokens evict at the unproven cap (SPEC 5, guard): the oldest registration
/// of their app and environment whose wake target the guard holds and that was never answered 200
/// (pushed and rejected: junk, or a wrong setting; never one not yet pushed, never one that got a
/// 200). So junk the guard must hold cannot keep a scope that never delivered full and lock new
/// devices out; only when there is none is a new token refused.
struct HeldJunkEvictions {
    /// The batch's own registrations, never evicted by it (one may be refreshed in it).
    private let sparing: Set<RegistrationKey>
    /// How many one scope may need at most: the batch's registrations.
    private let wanted: Int
    /// The candidates read so far per scope, oldest last (popped from the end).
    private var candidates: [Scope: [RegistrationKey]] = [:]

    private struct Scope: Hashable {
        var app: AppName
        var environment: APNsEnvironment
    }

    init(sparing: Set<RegistrationKey>, wanted: Int) {
        self.sparing = sparing
        self.wanted = wanted
    }

    /// Deletes the oldest held junk of `app` in `environment` through `statements`, adding what
    /// it deleted to `removed` (for the counters) and taking it off `counts`; false when there
    /// is none to evict. The scope's candidates are read once per batch.
    mutating func evict(
        in app: AppName, _ environment: APNsEnvironment, from statements: any RegistrationStatements,
        removed: inout [CountedTarget], counts: inout RegistrationCounts
    ) throws -> Bool {
        let scope = Scope(app: app, environment: environment)
        if candidates[scope] == nil {
            // Read past the batch's own, which are spared: enough for every registration in it.
            let found = try statements.heldJunk(of: app, in: environment, limit: wanted + sparing.count)
            candidates[scope] = found.filter { !sparing.contains($0) }.reversed()
        }
        while let key = candidates[scope]?.popLast() {
            guard let targets = try statements.delete([key]).first, !targets.isEmpty else { continue }
            removed += targets
            counts.remove(app, in: environment, unproven: !targets.contains { $0.kind == .wake && $0.proven })
            return true
        }
        return false
    }
}
