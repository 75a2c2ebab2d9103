import TestSupport
import Testing

/// Every integer column a less-trusted user can write, at each edge of `bigint` and at -1, against
/// every program that reads it back (issue 48): on SQLite every table's (any process of the web
/// user may write the file), on PostgreSQL those of the tables POSTGRESQL.md grants the
/// responder's role. The columns come from the schema itself, so one a later step adds is planted
/// without a word here. Each plant goes into a database the programs filled (a row in every
/// table), and each reader runs as the real program, so a trap is a signal naming the column and
/// the reader that met it, not a crash of the test run.
extension PlantedNumbersTests {
    static let edges: [Int64] = [.min, .max, -1]

    @Test(arguments: TestEngine.real)
    func everyWritableIntegerColumnAtItsEdgesMeetsEveryReader(engine: TestEngine) throws {
        let filled = try PlantedDatabase(fillingWith: try SweepFixture(engine))
        let columns = try filled.integerColumns()
        #expect(columns.contains { $0.description == "delivery_hours.hour" }, "the columns planted: \(columns)")
        // As filled, every reader answers in full: each reads what it is meant to.
        for reader in filled.readers(of: try filled.fresh()) {
            let run = try reader.run()
            #expect(reader.answered(run), "\(reader.name) of the filled database: \(run.status) \(run.stdout) \(run.stderr)")
        }
        var unplanted: [String] = []
        var crashes: [String] = []
        for column in columns {
            for value in Self.edges {
                let copy = try filled.fresh()
                guard try copy.plant(value, in: column) > 0 else {
                    unplanted.append("\(column) = \(value)")
                    continue
                }
                for reader in filled.readers(of: copy) {
                    if let crash = PlantedReader.crash(of: try reader.run()) {
                        crashes.append("\(column) = \(value): \(reader.name) \(crash)")
                    }
                }
            }
        }
        #expect(unplanted.isEmpty, "plants that changed no row (every table has one): \(unplanted)")
        #expect(crashes.isEmpty, "\(crashes.count) readers crashed:\n\(crashes.joined(separator: "\n"))")
    }

    /// The attempts' bytes hold times too (SPEC 7: "a malformed history blob"): an entry answered
    /// at each edge, put first in every target's history, met by every reader. An ack decoded it
    /// and trapped: any app's POST /wakeup/ack stopped the responder.
    @Test(arguments: TestEngine.real)
    func anAttemptAnsweredAtTheEdgesMeetsEveryReader(engine: TestEngine) throws {
        let filled = try PlantedDatabase(fillingWith: try SweepFixture(engine))
        var crashes: [String] = []
        for value in Self.edges {
            let copy = try filled.fresh()
            #expect(try copy.plantAttempt(answeredAt: value) > 0)
            for reader in filled.readers(of: copy) {
                if let crash = PlantedReader.crash(of: try reader.run()) {
                    crashes.append("an attempt answered at \(value): \(reader.name) \(crash)")
                }
            }
        }
        #expect(crashes.isEmpty, "\(crashes.count) readers crashed:\n\(crashes.joined(separator: "\n"))")
    }
}
