import TestSupport
import Testing

@testable import SQLiteStore

/// How SQLite reads the figures' most-pushed targets since no index of its own keeps them
/// (schema step 19): the due index alone, which carries `push_count`, never the table.
@Suite struct TopWakeupsPlanTests {
    @Test func theMostPushedTargetsAreACoveringScanOfTheDueIndex() throws {
        let database = try TestDatabase(.sqlite, label: "top-wakeups-plan")
        try database.reading { _ in }  // migrated
        let plan = try database.rows("EXPLAIN QUERY PLAN " + SQLiteStoreConnection.topWakeups(limit: 5).text)
            .map { $0[3] ?? "" }
        #expect(plan.contains("SCAN push_targets USING COVERING INDEX push_targets_due"), "\(plan)")
        #expect(plan.allSatisfy { $0.contains("push_targets_due") || $0.contains("TEMP B-TREE") }, "\(plan)")
    }
}
