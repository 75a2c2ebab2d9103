import LiveActivityDomain

/// The pushes of one sweep that have no final answer yet (queued, in flight, or set aside by the
/// time budget), by the id the sender knows each by: their targets, when each was last handed to the
/// sender (the attempt history's `sentAt`), and which are a retry. Only these rows are held, so a
/// sweep of 100,000 keeps a few thousand.
struct PendingPushes: Sendable {
    private var entries: [Int: (row: DueTarget, sentAt: Int64)] = [:]
    private var retried = Set<Int>()
    private var nextID = 0

    /// Holds `row` under a new id, which it returns; `now`: when it is sent.
    mutating func add(_ row: DueTarget, sentAt now: Int64) -> Int {
        let id = nextID
        nextID += 1
        entries[id] = (row, now)
        return id
    }

    /// The row of push `id`, if it is still pending.
    subscript(_ id: Int) -> DueTarget? { entries[id]?.row }

    /// When push `id` was last handed to the sender.
    func sentAt(_ id: Int) -> Int64? { entries[id]?.sentAt }

    /// Whether push `id` is already the one retry it may have.
    func isRetry(_ id: Int) -> Bool { retried.contains(id) }

    /// Marks push `id` as sent again at `now`.
    mutating func markRetried(_ id: Int, sentAt now: Int64) {
        retried.insert(id)
        entries[id]?.sentAt = now
    }

    /// Drops push `id`, decided now; returns its row.
    @discardableResult
    mutating func remove(_ id: Int) -> DueTarget? {
        retried.remove(id)
        return entries.removeValue(forKey: id)?.row
    }
}
