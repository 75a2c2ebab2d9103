import LiveActivityDomain
import LiveActivityStore
import StoreSQL
import Testing

/// `SQL`, the statement text whose binds number themselves (StoreSQL): each engine's placeholder
/// in the order the binds appear, a fragment's binds renumbered where it lands, and a text that
/// depends on the statement's shape only (engines prepare it once and find it by its text).
@Suite struct SelfNumberingSQLTests {
    /// A bind value as an engine's client would spell it, with SQLite's and PostgreSQL's placeholders.
    enum Dollar: SQLValue, Equatable {
        case integer(Int64)
        case text(String)
        case null
        static func placeholder(_ number: Int) -> String { "$\(number)" }
    }

    enum Question: SQLValue, Equatable {
        case integer(Int64)
        case text(String)
        case null
        static func placeholder(_ number: Int) -> String { "?\(number)" }
    }

    @Test func bindsAreNumberedInTheOrderTheyAppear() {
        let sql: SQL<Dollar> = "SELECT a FROM t WHERE b = \(bind: Int64(7)) AND c = \(bind: "x") AND d IS \(bind: .null)"
        #expect(sql.text == "SELECT a FROM t WHERE b = $1 AND c = $2 AND d IS $3")
        #expect(sql.binds == [.integer(7), .text("x"), .null])
    }

    @Test func eachEngineWritesItsOwnPlaceholder() {
        let sql: SQL<Question> = "UPDATE t SET a = \(bind: Int64(1)) WHERE b = \(bind: "k")"
        #expect(sql.text == "UPDATE t SET a = ?1 WHERE b = ?2")
    }

    @Test func aFragmentsBindsAreRenumberedWhereItLands() {
        let fragment: SQL<Dollar> = "x = \(bind: Int64(5)) AND y = \(bind: Int64(6))"
        let sql: SQL<Dollar> = "SELECT * FROM t WHERE z = \(bind: Int64(4)) AND \(fragment) LIMIT \(bind: Int64(9))"
        #expect(sql.text == "SELECT * FROM t WHERE z = $1 AND x = $2 AND y = $3 LIMIT $4")
        #expect(sql.binds == [.integer(4), .integer(5), .integer(6), .integer(9)])
    }

    @Test func joinedPartsKeepTheirBindsInOrder() {
        let parts: [SQL<Question>] = ["a = \(bind: Int64(1))", "b = b + 1", "c = \(bind: "c")"]
        let sql: SQL<Question> = "UPDATE t SET \(SQL.joined(parts, separator: ", ")) WHERE k = \(bind: "k")"
        #expect(sql.text == "UPDATE t SET a = ?1, b = b + 1, c = ?2 WHERE k = ?3")
        #expect(sql.binds == [.integer(1), .text("c"), .text("k")])
    }

    @Test func aListOfBindsIsCommaSeparated() {
        let sql: SQL<Dollar> = "DELETE FROM t WHERE r IN (\(binds: [.text("a"), .text("b")])) AND n < \(bind: Int64(3))"
        #expect(sql.text == "DELETE FROM t WHERE r IN ($1, $2) AND n < $3")
    }

    /// Two statements of one shape with other values share one text, so one prepared statement.
    @Test func theTextDependsOnTheShapeNotTheValues() {
        let scope = FaultScope(environment: .production, kind: .wake, app: .defaultApp)
        let first = UnreachedTargets(scope: scope, dueAtOrBefore: 1, registeredAtOrBefore: 1).sql() as SQL<Question>
        let second = UnreachedTargets(scope: scope, dueAtOrBefore: 2, registeredAtOrBefore: 2).sql() as SQL<Question>
        #expect(first.text == second.text)
        #expect(first.binds != second.binds)
    }

    /// The rules' fragments bind their values, never write them into the text.
    @Test func theRulesFragmentsBindTheirValues() {
        let scope = FaultScope(environment: .production, kind: .wake, app: .defaultApp)
        let unreached: SQL<Dollar> = UnreachedTargets(scope: scope, dueAtOrBefore: 10, registeredAtOrBefore: 5).sql()
        #expect(!unreached.text.contains("10") && !unreached.text.contains("production"))
        #expect(unreached.binds.contains(.integer(10)) && unreached.binds.contains(.text("production")))
        let everyKind = FaultScope(environment: .production, kind: nil, app: .defaultApp)
        let wider: SQL<Dollar> = UnreachedTargets(scope: everyKind, dueAtOrBefore: 10, registeredAtOrBefore: 5).sql()
        #expect(!wider.text.contains("push_kind") && wider.binds.count == unreached.binds.count - 1)
        let position = DuePosition(
            nextPushAt: 3, key: TargetKey(registration: PushToken(trusted: String(repeating: "a", count: 64)), kind: .wake))
        let after: SQL<Question> = DueOrder.after(position)
        #expect(after.text == "(next_push_at, registration_token, push_kind, app) > (?1, ?2, ?3, ?4)")
        #expect(after.binds.first == .integer(3))
    }
}
