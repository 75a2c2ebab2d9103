import CPostgreSQL

extension PostgresConnection {
    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws (the
    /// body's error is rethrown, not the rollback's). `BEGIN`, `COMMIT` and `ROLLBACK` are prepared
    /// once like any statement. A COMMIT that finds the transaction failed (a statement's error
    /// was caught inside `body`) rolls back, so it throws rather than report a commit.
    @discardableResult
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        if isInTransaction {
            throw PostgresError(kind: .other, message: "a transaction is already open on this connection", sql: "BEGIN")
        }
        try statement("BEGIN").run()
        do {
            let value = try body()
            let commit = try statement("COMMIT").run()
            guard commit.commandTag == "COMMIT" else {
                throw PostgresError(
                    kind: .other,
                    message: "the transaction had failed, so COMMIT rolled it back (a statement's error was not passed on)",
                    sql: "COMMIT")
            }
            return value
        } catch {
            if isInTransaction { _ = try? statement("ROLLBACK").run() }
            throw error
        }
    }
}
