import LiveActivityStore
import SQLiteClient

/// SQLite's rows read by the store's decoders (`StoredRow`), once for every engine.
extension Row: StoredRow {
    package func bytes(_ column: Int32) -> [UInt8]? { blob(column) }
}
