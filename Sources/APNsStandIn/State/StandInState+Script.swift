import LiveActivityDomain

/// Answers scripted for tests, per token and optionally per environment, used up in order.
extension StandInState {
    /// Queues `count` answers of `status`/`reason` for `token` (`*` for every token without its own
    /// script) in `environment` (nil: either); a `delayMilliseconds` answer is held that long
    /// first, to test timeouts.
    public func script(
        token: String, environment: APNsEnvironment? = nil, status: Int, reason: String?, timestamp: Int64? = nil,
        delayMilliseconds: Int = 0, count: Int = 1
    ) throws {
        try script(
            tokens: Array(repeating: token, count: count), environment: environment, status: status, reason: reason,
            timestamp: timestamp, delayMilliseconds: delayMilliseconds)
    }

    /// Queues one answer for each of `tokens`, in one transaction (thousands at once).
    public func script(
        tokens: [String], environment: APNsEnvironment? = nil, status: Int, reason: String?, timestamp: Int64? = nil,
        delayMilliseconds: Int = 0
    ) throws {
        try connection.transaction {
            let insert = try connection.statement(
                "INSERT INTO scripted (device_token, status, reason, timestamp_ms, delay_ms, environment) VALUES (?, ?, ?, ?, ?, ?)"
            )
            for token in tokens {
                try insert.run([
                    .text(token), .integer(Int64(status)), reason.map { .text($0) } ?? .null,
                    timestamp.map { .integer($0) } ?? .null, .integer(Int64(delayMilliseconds)),
                    environment.map { .text($0.rawValue) } ?? .null,
                ])
            }
        }
    }

    struct Scripted {
        var status: Int
        var reason: String?
        var timestamp: Int64?
        var delayMilliseconds: Int
    }

    /// Takes the next scripted answer for `token` pushed to `environment`: the token's own before
    /// the `*` ones, each for that environment or for either.
    func takeScripted(token: String, environment: APNsEnvironment) throws -> Scripted? {
        try connection.transaction {
            for key in [token, "*"] {
                let next = try connection.statement(
                    """
                    SELECT id, status, reason, timestamp_ms, delay_ms FROM scripted
                    WHERE device_token = ? AND (environment IS NULL OR environment = ?) ORDER BY id LIMIT 1
                    """
                ).firstRow([.text(key), .text(environment.rawValue)]) { row in
                    (
                        id: row.int(0),
                        answer: Scripted(
                            status: Int(row.int(1)), reason: row.text(2), timestamp: row.optionalInt(3),
                            delayMilliseconds: Int(row.int(4)))
                    )
                }
                guard let (id, answer) = next else { continue }
                try connection.statement("DELETE FROM scripted WHERE id = ?").run([.integer(id)])
                return answer
            }
            return nil
        }
    }
}
