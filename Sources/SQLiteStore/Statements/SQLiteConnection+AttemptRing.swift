import CSQLite
import LiveActivityDomain
import SQLiteClient

/// `liveactivity_attempts_prepend(entry, attempts)`, an SQL function of the sweep's connections:
/// `AttemptRing.prepending(entry:to:)` inside the UPDATE that writes an outcome, so the answer goes
/// on the row in the statement that rewrites it anyway, with no read of the row before (SPEC 4,
/// issue 16). A NULL entry leaves the attempts as they are.
extension SQLiteConnection {
    package static let prependAttemptFunction = "liveactivity_attempts_prepend"

    /// Makes the function known to this connection (SQLite keeps it per connection).
    package func registerAttemptRingFunction() {
        sqlite3_create_function_v2(
            handle, Self.prependAttemptFunction, 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, prependAttempt, nil, nil, nil)
    }
}

/// The function's body: the bytes of both arguments are read before any result is set.
private func prependAttempt(_ context: OpaquePointer?, _ count: Int32, _ values: UnsafeMutablePointer<OpaquePointer?>?) {
    guard count == 2, let values else { return sqlite3_result_null(context) }
    func bytes(_ value: OpaquePointer?) -> [UInt8]? {
        guard sqlite3_value_type(value) != SQLITE_NULL else { return nil }
        let length = Int(sqlite3_value_bytes(value))
        guard length > 0, let start = sqlite3_value_blob(value) else { return [] }
        return Array(UnsafeRawBufferPointer(start: start, count: length))
    }
    let ring = bytes(values[1])
    guard let entry = bytes(values[0]) else {
        return sqlite3_result_value(context, values[1])
    }
    let result = AttemptRing.prepending(entry: entry, to: ring)
    result.withUnsafeBytes { buffer in
        sqlite3_result_blob(context, buffer.baseAddress, Int32(buffer.count), liveactivity_sqlite_transient())
    }
}
