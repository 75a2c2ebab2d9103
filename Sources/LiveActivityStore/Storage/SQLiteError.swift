/// A failed SQLite call: the result code, SQLite's own message and the SQL it ran.
/// Bound values are never included, so tokens cannot leak into logs through an error.
/// `DatabaseFault` says what a failure means for its caller.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// The primary or extended result code (`SQLITE_BUSY`, `SQLITE_FULL`, ...).
    public let code: Int32
    public let message: String
    public let sql: String?

    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The primary result code, with the extended bits masked off.
    public var primaryCode: Int32 { code & 0xff }

    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " (in: \(sql.prefix(120)))" }
        return text
    }

    /// Lets a `catch` test the code: `catch let e as SQLiteError where e ~= SQLITE_BUSY`.
    public static func ~= (lhs: Int32, rhs: SQLiteError) -> Bool { rhs.primaryCode == lhs }
}
