/// A failed SQLite call: the result code, SQLite's own message and the SQL it ran.
/// Bound values are never included, so tokens cannot leak into logs through an error.
/// The SQLite engine classifies it into a backend-neutral `StoreFault`.
package struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// The primary or extended result code (`SQLITE_BUSY`, `SQLITE_FULL`, ...).
    package let code: Int32
    package let message: String
    package let sql: String?

    package init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The primary result code, with the extended bits masked off.
    package var primaryCode: Int32 { code & 0xff }

    package var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " (in: \(sql.prefix(120)))" }
        return text
    }

    /// Lets a `catch` test the code: `catch let e as SQLiteError where e ~= SQLITE_BUSY`.
    package static func ~= (lhs: Int32, rhs: SQLiteError) -> Bool { rhs.primaryCode == lhs }
}
