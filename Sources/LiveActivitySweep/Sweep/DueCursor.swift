import LiveActivityDomain
import LiveActivityStore

/// The push targets due this sweep, read from the database a page at a time, so a sweep of
/// 100,000 holds a few thousand rows, not all of them (their tokens alone were 11 MB).
///
/// Pages follow the due order (oldest first) and each starts after the last row read, with no
/// transaction held between them: the outcome writer commits while the sweep reads, and on SQLite
/// a long-lived snapshot would keep the WAL from checkpointing for the whole run. On PostgreSQL
/// each page is claimed as it is read, under the sweep's lease, which its connection holds. So a
/// row written this run can come round again further on (a very short interval puts it back
/// within the due slack): the cursor remembers a 64-bit hash of every target it returned and
/// skips them, so each target is pushed at most once per sweep. A registration made during the
/// sweep is pushed in it when its place is still ahead, as if it had been there at the start.
///
/// A scope a fault stopped is skipped from then on (`skip`): an environment stopped for every app
/// is no longer read, and the targets of one app's environment, or of one kind there, are passed
/// over; they are not held one by one, one
/// statement per group holds them at the end (`SweepStatements.holdUnreached`). A row holding a
/// value this build cannot use is skipped and counted (`refused`), never pushed.
///
/// With `readingAhead`, the next page is read on a thread of its own as soon as a full page is
/// taken (`PageAhead`), while the sweep pushes this one. That read is then the store's only user:
/// the owner leaves the store alone until `finish()`. A page read ahead before a scope was
/// skipped may hold that scope's targets: they are passed over as any skipped target is (on
/// PostgreSQL claimed and given back with the rest of the claims the sweep never wrote).
final class DueCursor {
    private let store: any SweepStatements
    let cutoff: Int64
    private var environments: [APNsEnvironment]
    /// The apps the sweep serves, each with the environments it enables (SPEC 6: an app's own
    /// `APNS_ENVIRONMENTS`, else the default app's).
    private let apps: [AppName: Set<APNsEnvironment>]
    private let pageSize: Int
    private let readingAhead: Bool
    /// The next page, being read while this one is taken.
    private var ahead: PageAhead?

    private var page: [DueRead] = []
    private var index = 0
    private var position: DuePosition?
    private var exhausted = false
    private var returned = Set<Int>()
    /// Rows skipped for a value this build cannot use, and the first one's reason.
    private(set) var refused = 0
    private(set) var firstRefusal: String?
    /// Due targets of apps the sweep does not serve (gone from `LIVEACTIVITY_APPS`), passed over:
    /// how many of each. They stay as they are until they expire.
    private(set) var unserved: [AppName: Int] = [:]

    /// `expected`: the rows counted due at the start, room for whose hashes is made at once. Grown
    /// one doubling at a time instead, the set's last doubling came at the run's end, when memory
    /// peaks: 1 MB of old storage beside 2 MB of new at 100,000.
    init(
        store: any SweepStatements, cutoff: Int64, environments: [APNsEnvironment], pageSize: Int = 1000,
        expected: Int = 0, apps: [AppName: Set<APNsEnvironment>]? = nil, readingAhead: Bool = false
    ) {
        self.readingAhead = readingAhead
        self.apps = apps ?? [.defaultApp: Set(environments)]
        self.store = store
        self.cutoff = cutoff
        self.environments = environments
        self.pageSize = max(1, pageSize)
        returned.reserveCapacity(max(0, expected))
    }

    /// The scopes passed over: an app's environment, or one kind there.
    private var skipped: Set<FaultScope> = []

    /// Returns no more targets of `scope`, in this page or later ones. An environment stopped
    /// for every app served is no longer read at all.
    func skip(_ scope: FaultScope) {
        skipped.insert(scope)
        if scope.kind == nil,
            apps.keys.allSatisfy({ skipped.contains(FaultScope(environment: scope.environment, app: $0)) })
        {
            environments.removeAll { $0 == scope.environment }
        }
    }

    /// Waits for a page being read ahead, whose targets are not taken: the store is its owner's
    /// again. Call it before the store is used once the sweep is done with the cursor.
    func finish() {
        _ = try? ahead?.take()
        ahead = nil
    }

    /// The read of the page after the last one taken, with what the cursor knows now: run at once,
    /// or on a thread (`PageAhead`, nil when no thread started: it is read when needed).
    private func nextPageRead() -> @Sendable () throws -> [DueRead] {
        let store = ThreadOwned(self.store)
        let (cutoff, environments, position, limit) = (self.cutoff, self.environments, self.position, pageSize)
        return { try store.value.claimDue(atOrBefore: cutoff, environments: environments, after: position, limit: limit) }
    }

    /// Whether a fault stopped `row`'s scope.
    private func isSkipped(_ row: DueTarget) -> Bool {
        !skipped.isEmpty
            && (skipped.contains(row.scope.faultScope.wholeEnvironment) || skipped.contains(row.scope.faultScope))
    }

    /// The next due target, or nil when none is left.
    func next() throws -> DueTarget? {
        while true {
            if index == page.count {
                guard !exhausted, !environments.isEmpty else { return nil }
                page = try ahead?.take() ?? nextPageRead()()
                ahead = nil
                index = 0
                exhausted = page.count < pageSize
                position = page.last?.position ?? position
                if page.isEmpty { return nil }
                if readingAhead && !exhausted { ahead = PageAhead.start(nextPageRead()) }
            }
            let read = page[index]
            index += 1
            let row: DueTarget
            switch read.target {
            case .success(let due): row = due
            case .failure(let error):
                refused += 1
                if firstRefusal == nil { firstRefusal = "\(read.position.key): \(error)" }
                continue
            }
            guard environments.contains(row.environment), !isSkipped(row) else { continue }
            guard let enabled = apps[row.app] else {
                unserved[row.app, default: 0] += 1
                continue
            }
            // An environment its app does not enable is left alone, as the query leaves one no
            // app enables (another app's setting brought the row into the page).
            guard enabled.contains(row.environment) else { continue }
            if returned.insert(row.key.hashValue).inserted { return row }
        }
    }
}
