import CPostgreSQL

#if canImport(Glibc)
    import Glibc
#endif

/// One row of a `PostgresResult`, read by column index (0-based) from the text format. It keeps
/// its result alive, so it may outlive the closure it was given to.
package struct PostgresRow {
    let result: PostgresResult
    let index: Int32

    private var handle: OpaquePointer { result.handle }

    package func isNull(_ column: Int32) -> Bool { PQgetisnull(handle, index, column) == 1 }

    /// The column as an integer (`int2`, `int4`, `int8`, a `numeric` without a fraction); 0 when
    /// it is NULL, as SQLite's reader gives.
    package func int(_ column: Int32) -> Int64 { optionalInt(column) ?? 0 }

    /// The column as an integer; nil when it is NULL.
    package func optionalInt(_ column: Int32) -> Int64? {
        guard !isNull(column), let text = PQgetvalue(handle, index, column) else { return nil }
        return strtoll(text, nil, 10)
    }

    /// The column's text; nil when it is NULL.
    package func text(_ column: Int32) -> String? {
        guard !isNull(column), let text = PQgetvalue(handle, index, column) else { return nil }
        return String(cString: text)
    }

    /// A `boolean` column; false when it is NULL.
    package func bool(_ column: Int32) -> Bool {
        guard !isNull(column), let text = PQgetvalue(handle, index, column) else { return false }
        return text.pointee == CChar(UInt8(ascii: "t"))
    }

    /// A `bytea` column's bytes; nil when it is NULL. The server sends bytea escaped (hex, or the
    /// older escape format if `bytea_output` says so); `PQunescapeBytea` reads both.
    package func bytes(_ column: Int32) -> [UInt8]? {
        guard !isNull(column), let text = PQgetvalue(handle, index, column) else { return nil }
        var length = 0
        guard let bytes = text.withMemoryRebound(to: UInt8.self, capacity: 1, { PQunescapeBytea($0, &length) })
        else { return nil }
        defer { PQfreemem(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: length))
    }
}
