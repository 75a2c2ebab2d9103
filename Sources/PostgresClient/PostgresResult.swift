import CPostgreSQL

/// One statement's result (libpq's `PGresult`), owned here and cleared in `deinit`. Its rows are
/// read in place through `PostgresRow`, in PostgreSQL's text format.
package final class PostgresResult {
    let handle: OpaquePointer

    /// Takes ownership of `handle`.
    init(owning handle: OpaquePointer) { self.handle = handle }

    deinit { PQclear(handle) }

    /// The number of rows returned.
    package var count: Int { Int(PQntuples(handle)) }

    /// The number of columns of each row.
    package var columnCount: Int { Int(PQnfields(handle)) }

    /// Rows an INSERT, UPDATE, DELETE, MERGE, SELECT or COPY touched (libpq's `PQcmdTuples`);
    /// 0 for a command that reports none.
    package var rowsAffected: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

    /// The command tag (`INSERT 0 1`, `COMMIT`, `ROLLBACK`, ...).
    package var commandTag: String { String(cString: PQcmdStatus(handle)) }

    /// The row at `index` (0-based).
    package func row(_ index: Int) -> PostgresRow {
        precondition(index >= 0 && index < count, "row \(index) of \(count)")
        return PostgresRow(result: self, index: Int32(index))
    }

    /// `read` of each row, in order.
    package func rows<T, E: Error>(_ read: (PostgresRow) throws(E) -> T) throws(E) -> [T] {
        var rows: [T] = []
        rows.reserveCapacity(count)
        for index in 0..<count { rows.append(try read(PostgresRow(result: self, index: Int32(index)))) }
        return rows
    }

    /// `read` of the first row; nil when there is none.
    package func firstRow<T, E: Error>(_ read: (PostgresRow) throws(E) -> T) throws(E) -> T? {
        count > 0 ? try read(PostgresRow(result: self, index: 0)) : nil
    }
}
