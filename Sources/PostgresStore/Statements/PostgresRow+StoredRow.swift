import LiveActivityStore
import PostgresClient

/// PostgreSQL's rows read by the store's decoders (`StoredRow`), once for every engine: the
/// client's `text`, `int`, `optionalInt` and `bytes` are the protocol's reads already.
extension PostgresRow: StoredRow {}
