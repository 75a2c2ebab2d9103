import Foundation

/// A database of its own for one test, on a `PostgresCluster`, dropped (its sessions ended) when
/// the value is released, if its server still serves.
public final class PostgresTestDatabase: @unchecked Sendable {
    public let cluster: PostgresCluster
    public let name: String

    init(cluster: PostgresCluster, name: String) {
        self.cluster = cluster
        self.name = name
    }

    deinit { cluster.dropDatabase(name) }

    /// A `postgresql://` URI for it, as the superuser unless `user` is given.
    public func uri(user: String = PostgresCluster.superuser, password: String? = nil, options: [String: String] = [:])
        -> String
    {
        PostgresCluster.uri(hosts: [cluster], database: name, user: user, password: password, options: options)
    }

    /// The same in libpq's `key=value` form.
    public func keyValueConninfo(user: String = PostgresCluster.superuser, password: String? = nil) -> String {
        var text = "host=\(cluster.socketDirectory) port=\(cluster.port) dbname=\(name) user=\(user)"
        if let password {
            text +=
                " password='\(password.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'"))'"
        }
        return text
    }

    /// Runs `sql` as the superuser in this database (`PostgresCluster.psql`).
    @discardableResult
    public func psql(_ sql: String) throws -> String { try cluster.psql(sql, database: name) }
}
