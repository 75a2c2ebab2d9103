import CPostgreSQL

@testable import PostgresClient

/// The host (socket folder) a connection reached, from libpq.
func reachedHost(_ connection: PostgresConnection) -> String? {
    PQhost(connection.handle).map { String(cString: $0) }
}
