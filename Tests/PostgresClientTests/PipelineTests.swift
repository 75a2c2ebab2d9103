import TestSupport
import Testing

@testable import PostgresClient

/// Pipelines: many prepared runs in one round trip, each run's result in order; a failure names
/// its run, skips the rest of its segment and rolls the segment back; the session is left as clean
/// as it was.
@Suite struct PipelineTests {
    let database: PostgresTestDatabase
    let connection: PostgresConnection

    init() throws {
        database = try PostgresCluster.shared().createDatabase("pipelines")
        connection = try PostgresConnection(conninfo: database.uri())
        try connection.execute("CREATE TABLE entries (id bigint PRIMARY KEY, note text)")
    }

    func stored() throws -> [Int64] {
        try PostgresConnection(conninfo: database.uri()).statement("SELECT id FROM entries ORDER BY id").rows { $0.int(0) }
    }

    @Test func everyRunsResultComesBackInOrder() throws {
        let insert = try connection.statement("INSERT INTO entries VALUES ($1, $2) RETURNING id * 10")
        let count = try connection.statement("SELECT count(*) FROM entries")
        let results = try connection.pipeline { batch in
            for id in 1...50 { batch.run(insert, [.integer(Int64(id)), .text("n\(id)")]) }
            batch.run(count)
        }
        #expect(results.count == 51)
        #expect(results.prefix(50).map { $0.row(0).int(0) } == (1...50).map { Int64($0) * 10 })
        #expect(results[50].row(0).int(0) == 50, "a later run sees what the earlier ones wrote")
        #expect(try stored().count == 50)
    }

    @Test func aFailingRunInTheMiddleIsNamedTheRestSkippedAndTheSegmentRolledBack() throws {
        let insert = try connection.statement("INSERT INTO entries VALUES ($1, $2)")
        let outcomes = try connection.pipelineOutcomes { batch in
            batch.run(insert, [.integer(1), .text("first")])
            batch.run(insert, [.integer(1), .text("duplicate")])
            batch.run(insert, [.integer(2), .text("after")])
            batch.sync()
            batch.run(insert, [.integer(3), .text("next segment")])
        }
        #expect(outcomes.count == 4)
        #expect(outcomes[0].result?.rowsAffected == 1)
        guard case .failed(let error) = outcomes[1] else {
            Issue.record("run 1: \(outcomes[1])")
            return
        }
        #expect(error.pipelineItem == 1)
        #expect(error.kind == .constraintViolation)
        guard case .skipped = outcomes[2] else {
            Issue.record("run 2: \(outcomes[2])")
            return
        }
        #expect(outcomes[3].result?.rowsAffected == 1)
        #expect(try stored() == [3], "the first segment was one implicit transaction, rolled back; the second committed")
        #expect(!connection.isInTransaction)

        let thrown = try #require(throws: PostgresError.self) {
            try connection.pipeline { batch in
                batch.run(insert, [.integer(4), .text("rolled back")])
                batch.run(insert, [.integer(3), .text("duplicate")])
            }
        }
        #expect(thrown.pipelineItem == 1)
        #expect(try stored() == [3])
    }

    @Test func aFailureInsideAnExplicitTransactionLeavesNoTransactionOpen() throws {
        let begin = try connection.statement("BEGIN")
        let commit = try connection.statement("COMMIT")
        let insert = try connection.statement("INSERT INTO entries VALUES ($1, $2)")
        let outcomes = try connection.pipelineOutcomes { batch in
            batch.run(begin)
            batch.run(insert, [.integer(10), .text("a")])
            batch.run(insert, [.integer(10), .text("a again")])
            batch.run(commit)
        }
        #expect(
            outcomes.map { if case .failed = $0 { "failed" } else if case .skipped = $0 { "skipped" } else { "done" } } == [
                "done", "done", "failed", "skipped",
            ])
        #expect(!connection.isInTransaction, "the aborted transaction was rolled back")
        #expect(try stored() == [])
        let results = try connection.pipeline { batch in
            batch.run(begin)
            batch.run(insert, [.integer(11), .text("b")])
            batch.run(commit)
        }
        #expect(results.map(\.commandTag) == ["BEGIN", "INSERT 0 1", "COMMIT"])
        #expect(try stored() == [11])
    }

    @Test func aCommitThatFailsAtTheSyncIsReportedOnTheSegmentsLastRun() throws {
        try connection.execute(
            "CREATE TABLE deferred (id bigint, CONSTRAINT deferred_unique UNIQUE (id) DEFERRABLE INITIALLY DEFERRED)")
        let insert = try connection.statement("INSERT INTO deferred VALUES ($1)")
        let outcomes = try connection.pipelineOutcomes { batch in
            batch.run(insert, [.integer(1)])
            batch.run(insert, [.integer(1)])
        }
        guard case .done = outcomes[0], case .failed(let error) = outcomes[1] else {
            Issue.record("\(outcomes)")
            return
        }
        #expect(error.pipelineItem == 1)
        #expect(error.constraint == "deferred_unique")
        #expect(try connection.statement("SELECT count(*) FROM deferred").scalarInt() == 0)
    }

    @Test func aPipelineInsideATransactionIsPartOfIt() throws {
        let insert = try connection.statement("INSERT INTO entries VALUES ($1, $2)")
        struct Changed: Error {}
        #expect(throws: Changed.self) {
            try connection.transaction {
                _ = try connection.pipeline { batch in
                    batch.run(insert, [.integer(20), .text("x")])
                    batch.run(insert, [.integer(21), .text("y")])
                }
                throw Changed()
            }
        }
        #expect(try stored() == [])
    }

    @Test func aPipelineLargerThanTheSocketsBuffersBothWaysCompletes() throws {
        let insert = try connection.statement("INSERT INTO entries VALUES ($1, $2) RETURNING note")
        let note = String(repeating: "x", count: 2000)
        let results = try connection.pipeline { batch in
            for id in 1...3000 { batch.run(insert, [.integer(Int64(id)), .text(note)]) }
        }
        #expect(results.count == 3000)
        #expect(results.allSatisfy { $0.row(0).text(0) == note })
        #expect(try stored().count == 3000)
    }

    @Test func anEmptyPipelineSendsNothing() throws {
        #expect(try connection.pipeline { _ in }.isEmpty)
        #expect(try connection.statement("SELECT 1").scalarInt() == 1)
    }
}
