import LiveActivityDomain

/// The pushes of one sweep that have no final answer yet (queued, in flight, or set aside by the
/// time budget), by the id the sender knows each by: their rows, and which are a retry. Only these
/// rows are held, so a sweep of 100,000 keeps a few thousand.
struct PendingPushes: Sendable {
    private var rows: [Int: DueRegistration] = [:]
    private var retried = Set<Int>()
    private var nextID = 0

    /// Holds `row` under a new id, which it returns.
    mutating func add(_ row: DueRegistration) -> Int {
        let id = nextID
        nextID += 1
        rows[id] = row
        return id
    }

    /// The row of push `id`, if it is still pending.
    subscript(_ id: Int) -> DueRegistration? { rows[id] }

    /// Whether push `id` is already the one retry it may have.
    func isRetry(_ id: Int) -> Bool { retried.contains(id) }

    /// Marks push `id` as sent again.
    mutating func markRetried(_ id: Int) { retried.insert(id) }

    /// Drops push `id`, decided now; returns its row.
    @discardableResult
    mutating func remove(_ id: Int) -> DueRegistration? {
        retried.remove(id)
        return rows.removeValue(forKey: id)
    }
}
