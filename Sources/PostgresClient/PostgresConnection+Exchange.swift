import CPostgreSQL

#if canImport(Glibc)
    import Glibc
#endif

/// The bounded exchange every call goes through: queue the command (libpq's `PQsend...`), flush
/// it, then read its results while libpq is busy, each wait a poll(2) on the socket that ends at
/// the call's deadline (https://www.postgresql.org/docs/current/libpq-async.html).
extension PostgresConnection {
    /// Sends one command and reads all of its results; returns the last, or throws the first error
    /// once every result is read (so the connection is ready for the next command).
    func exchange(sql: String?, _ send: (OpaquePointer) -> Int32) throws(PostgresError) -> PostgresResult {
        try checkUsable(sql)
        let deadline = CallDeadline(after: callTimeout)
        guard send(handle) == 1 else { throw failed(sql) }
        try flush(deadline, sql: sql)
        var last: PostgresResult?
        var firstError: PostgresError?
        while let raw = try nextResult(deadline, sql: sql) {
            let result = PostgresResult(owning: raw)
            if Self.copyStatuses.contains(PQresultStatus(raw).rawValue) {
                // The server now waits for (or sends) COPY data, which this client never handles.
                breakConnection()
                throw PostgresError(kind: .other, message: "COPY is not supported; the connection is closed", sql: sql)
            }
            if let error = error(in: result, sql: sql) {
                if firstError == nil { firstError = error }
            } else {
                last = result
            }
        }
        if let firstError { throw settle(firstError) }
        if let last { return last }
        // Every command yields at least one result; none means the connection is gone.
        throw failed(sql)
    }

    static let copyStatuses: Set<UInt32> = [PGRES_COPY_IN.rawValue, PGRES_COPY_OUT.rawValue, PGRES_COPY_BOTH.rawValue]

    /// Throws `unreachable` for a connection already broken.
    func checkUsable(_ sql: String?) throws(PostgresError) {
        if isBroken {
            throw PostgresError(kind: .unreachable, message: "the connection is broken; open a new one", sql: sql)
        }
    }

    /// Hands libpq's buffered output to the socket, reading whatever the server sends meanwhile
    /// (a server busy writing results may not read until they are read: libpq's advice for
    /// non-blocking connections).
    func flush(_ deadline: CallDeadline, sql: String?) throws(PostgresError) {
        while true {
            switch PQflush(handle) {
            case 0: return
            case 1: break
            default: throw failed(sql)
            }
            let events = try wait(for: Int16(POLLIN | POLLOUT), deadline, sql: sql)
            if events & Int16(POLLIN | POLLHUP | POLLERR) != 0, PQconsumeInput(handle) == 0 { throw failed(sql) }
        }
    }

    /// The next result, reading (bounded) while libpq is busy; nil once the command's results ended.
    func nextResult(_ deadline: CallDeadline, sql: String?) throws(PostgresError) -> OpaquePointer? {
        while PQisBusy(handle) == 1 {
            _ = try wait(for: Int16(POLLIN), deadline, sql: sql)
            if PQconsumeInput(handle) == 0 { throw failed(sql) }
        }
        return PQgetResult(handle)
    }

    /// Waits for the socket, or closes the connection and throws once the deadline passes: the
    /// server may still be running the command, and an answer arriving later would be taken for
    /// the next command's.
    private func wait(for events: Int16, _ deadline: CallDeadline, sql: String?) throws(PostgresError) -> Int16 {
        let socket = PQsocket(handle)
        guard socket >= 0 else { throw failed(sql) }
        switch deadline.wait(for: events, on: socket) {
        case .ready(let revents): return revents
        case .timedOut:
            breakConnection()
            throw PostgresError(
                kind: .unreachable,
                message: "no answer from the server within \(deadline.limitDescription); the connection is closed",
                sql: sql)
        }
    }

    /// The error a result reports, nil for a result that is not one.
    func error(in result: PostgresResult, sql: String?) -> PostgresError? {
        let status = PQresultStatus(result.handle)
        guard status == PGRES_FATAL_ERROR || status == PGRES_BAD_RESPONSE || status == PGRES_NONFATAL_ERROR else {
            return nil
        }
        func field(_ code: Int32) -> String? { PQresultErrorField(result.handle, code).map { String(cString: $0) } }
        let message =
            field(liveactivity_pg_diag_message_primary) ?? Self.oneLine(String(cString: PQresultErrorMessage(result.handle)))
        return PostgresError(
            sqlstate: field(liveactivity_pg_diag_sqlstate), message: message, sql: sql,
            constraint: field(liveactivity_pg_diag_constraint_name))
    }

    /// The error libpq reports for a call that failed on its side (a send refused, a read that
    /// met a closed socket), with the connection settled.
    func failed(_ sql: String?) -> PostgresError {
        let message = Self.oneLine(String(cString: PQerrorMessage(handle)))
        let kind: PostgresError.Kind = PQstatus(handle) == CONNECTION_BAD ? .unreachable : .other
        return settle(PostgresError(kind: kind, message: message.isEmpty ? "libpq failed" : message, sql: sql))
    }

    /// Closes the connection after an error that leaves it unusable, and says so in the error's
    /// kind: a session the server ended (whatever its SQLSTATE: an idle timeout, a shutdown) is
    /// `unreachable`; a read-only server is left so the caller reconnects to find the primary.
    func settle(_ error: PostgresError) -> PostgresError {
        guard !isBroken else { return error }
        if PQstatus(handle) == CONNECTION_BAD {
            breakConnection()
            guard error.kind != .unreachable else { return error }
            return PostgresError(
                kind: .unreachable, sqlstate: error.sqlstate, message: error.message, sql: error.sql,
                constraint: error.constraint, pipelineItem: error.pipelineItem)
        }
        if error.kind == .unreachable || error.kind == .readOnly { breakConnection() }
        return error
    }

    /// Closes the connection for good without waiting on the server.
    func breakConnection() { close() }

    /// A libpq message on one line: its lines joined, the trailing newline dropped.
    static func oneLine(_ message: String) -> String {
        message.split(separator: "\n").map { line in
            line.drop { $0 == " " || $0 == "\t" }
        }.filter { !$0.isEmpty }.joined(separator: " ")
    }
}

extension PostgresConnection {
    /// Whether the server has ended the session while it was idle (a restart, a failover, an
    /// administrator's `pg_terminate_backend`): reads what the socket holds without waiting, and
    /// closes the connection when libpq finds it gone. A poll of zero time, cheap enough before
    /// every transaction, so its owner opens a new session instead of losing a request to the old.
    package func lostItsServer() -> Bool {
        guard !isBroken else { return true }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        guard descriptor.fd >= 0 else {
            breakConnection()
            return true
        }
        // A server that ends a session sends its FATAL message and then closes: libpq reads the
        // message on one call and finds the end of the stream only on the next, so read until
        // the socket holds nothing more (a few rounds at most; an idle session gets no traffic).
        for _ in 0..<4 {
            guard poll(&descriptor, 1, 0) > 0, descriptor.revents != 0 else { return false }
            if PQconsumeInput(handle) == 0 || PQstatus(handle) == CONNECTION_BAD {
                breakConnection()
                return true
            }
        }
        return false
    }
}
