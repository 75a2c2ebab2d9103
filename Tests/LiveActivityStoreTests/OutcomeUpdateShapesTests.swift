import SQLiteClient
import TestSupport
import Testing

@testable import SQLiteStore

/// SQLite's outcome update is one of 24 statements, by what the row sets, how its attempts change
/// (replaced ones with the unchanged acks or without) and whether it clears a waiting ack; each is
/// prepared on its first use, and a sweep may meet some of them rarely (a judged ack with
/// `changed`, say). So every one is prepared here, against the schema, and says what its shape says.
@Suite struct OutcomeUpdateShapesTests {
    @Test func everyShapeOfTheOutcomeUpdatePreparesAndSetsWhatItsShapeSays() throws {
        let database = try TestDatabase(.sqlite, label: "outcome-shapes")
        try database.reading { _ in }  // migrated
        // A connection as the outcome writer's is: with the attempts' SQL function.
        let engine = try #require(database.engine as? SQLiteEngine)
        let connection = try SQLiteConnection(path: engine.path)
        connection.registerAttemptRingFunction()
        let shapes = SQLiteStoreConnection.UpdateShape.all
        let statements = SQLiteStoreConnection.updates
        #expect(shapes.count == 24 && statements.count == 24)
        #expect(shapes.map(\.number) == Array(0..<24), "a shape's number is its place")
        // An attempt alone that changes nothing sets nothing: it is never run (nor prepared).
        #expect(shapes.filter(\.setsNothing).map(\.number) == [16])
        for (shape, statement) in zip(shapes, statements) where !shape.setsNothing {
            let text = statement.text
            // Prepared as a sweep prepares it, against the schema: every column and the function exist.
            #expect(throws: Never.self, "\(shape): \(text)") { _ = try connection.statement(statement) }
            #expect(statement.number == shape.number)
            #expect(text.contains("push_count = push_count + 1") == (shape.change == .delivered), "\(text)")
            #expect(text.contains("guard_holds = guard_holds +") == (shape.change == .kept), "\(text)")
            // Only an attempt alone goes on the row whatever it holds now; the others where it is as read.
            #expect(text.contains("registered_at =") == (shape.change != .attemptOnly), "\(text)")
            #expect(text.contains("attempts = liveactivity_attempts_prepend(") == (shape.attempts == .prepend), "\(text)")
            #expect(text.contains("attempts = ?") == shape.replacesAttempts, "\(text)")
            #expect(text.contains("waiting_ack_at = NULL") == shape.clearsWaitingAck, "\(text)")
            #expect(text.contains("unchanged_acks =") == shape.writesUnchangedAcks, "\(text)")
            #expect(text.hasSuffix("AND app = ?\(text.filter { $0 == "?" }.count)"), "the app is the last bind: \(text)")
        }
    }
}
