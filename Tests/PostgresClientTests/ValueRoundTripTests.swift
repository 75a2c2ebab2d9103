import TestSupport
import Testing

@testable import PostgresClient

/// Every value the client binds comes back as it went, through a real server: text, integers,
/// booleans and bytea (zero bytes, empty, large), and NULL of each.
@Suite struct ValueRoundTripTests {
    let database: PostgresTestDatabase
    let connection: PostgresConnection

    init() throws {
        database = try PostgresCluster.shared().createDatabase("values")
        connection = try PostgresConnection(conninfo: database.uri())
        try connection.execute(
            "CREATE TABLE items (id bigint PRIMARY KEY, label text, count bigint, flag boolean, payload bytea)")
    }

    func roundTrip(_ id: Int64, label: String?, count: Int64?, flag: Bool?, payload: [UInt8]?) throws {
        try connection.statement("INSERT INTO items VALUES ($1, $2, $3, $4, $5)").run([
            .integer(id), label.map { .text($0) } ?? .null, count.map { .integer($0) } ?? .null,
            flag.map { .bool($0) } ?? .null, payload.map { .bytea($0) } ?? .null,
        ])
        let row = try #require(
            try connection.statement("SELECT id, label, count, flag, payload FROM items WHERE id = $1").firstRow([.integer(id)]) {
                $0
            })
        #expect(row.int(0) == id)
        #expect(row.text(1) == label)
        #expect(row.optionalInt(2) == count)
        #expect(row.isNull(3) == (flag == nil))
        #expect(row.bool(3) == (flag ?? false))
        #expect(row.bytes(4) == payload)
    }

    @Test func textIntegersAndBooleansComeBackAsTheyWent() throws {
        try roundTrip(1, label: "plain", count: 42, flag: true, payload: [1, 2, 3])
        try roundTrip(2, label: "ünïcødé ✓ 🚀, 'quotes' and \"double\" and \\backslash", count: -7, flag: false, payload: [])
        try roundTrip(3, label: "", count: Int64.max, flag: true, payload: [0])
        try roundTrip(4, label: String(repeating: "long text ", count: 100_000), count: Int64.min, flag: false, payload: [255])
    }

    @Test func nullsComeBackAsNull() throws {
        try roundTrip(5, label: nil, count: nil, flag: nil, payload: nil)
        let row = try #require(try connection.statement("SELECT count, label FROM items WHERE id = 5").firstRow { $0 })
        #expect(row.int(0) == 0, "a NULL integer reads as 0, as SQLite's reader gives")
        #expect(row.isNull(0) && row.isNull(1))
    }

    @Test func byteaKeepsZeroBytesEveryByteValueAndLargeValues() throws {
        try roundTrip(6, label: "zeros", count: 0, flag: true, payload: [0, 0, 0, 1, 0])
        try roundTrip(
            7, label: "every byte", count: 0, flag: true,
            payload: (0...255).map { UInt8($0) } + (0...255).reversed().map { UInt8($0) })
        // Every byte value, in an order with no short period (a multiplicative hash of the index).
        let big = (0..<UInt32(8 << 20)).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }
        try roundTrip(8, label: "8 MiB", count: 0, flag: true, payload: big)
        let length = try connection.statement("SELECT length(payload) FROM items WHERE id = 8").scalarInt()
        #expect(length == Int64(big.count), "the server holds every byte, not a text rendering of them")
    }

    @Test func byteaReadsTheOlderEscapeFormatToo() throws {
        try connection.execute("SET bytea_output = escape")
        try roundTrip(9, label: "escape", count: 0, flag: true, payload: [0, 92, 39, 200, 10, 65])
    }

    @Test func aTextValueHoldingAZeroByteIsRefusedBeforeItIsSent() throws {
        let insert = try connection.statement("INSERT INTO items (id, label) VALUES ($1, $2)")
        let error = try #require(throws: PostgresError.self) { try insert.run([.integer(10), .text("cut\u{0}here")]) }
        #expect(error.kind == .other)
        #expect(!error.description.contains("cut"), "the value is not in the error: \(error)")
        #expect(!connection.isBroken)
        #expect(try connection.statement("SELECT count(*) FROM items WHERE id = 10").scalarInt() == 0)
    }

    @Test func integersBindToWhateverTypeTheStatementGivesThem() throws {
        let row = try #require(
            try connection.query(
                "SELECT $1::int2 + 1, $2::numeric * 2, $3::text, $4::boolean",
                [.integer(7), .integer(21), .integer(-3), .bool(true)]
            )
            .firstRow { $0 })
        #expect(row.int(0) == 8)
        #expect(row.int(1) == 42)
        #expect(row.text(2) == "-3")
        #expect(row.bool(3))
    }
}
