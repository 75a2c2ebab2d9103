import CPostgreSQL

#if canImport(Glibc)
    import Glibc
#endif

/// Connecting: libpq's asynchronous connect (`PQconnectStartParams`, then `PQconnectPoll` while
/// poll(2) waits on the socket: https://www.postgresql.org/docs/current/libpq-connect.html), one
/// host at a time with a deadline each, so neither a dead host nor a frozen one holds the caller.
extension PostgresConnection {
    static func connect(
        _ conninfo: PostgresConninfo, applicationName: String?, timeout: Duration
    ) throws(PostgresError) -> OpaquePointer {
        // The string's own connect_timeout may shorten the bound, never lengthen or remove it
        // (libpq reads 0 as no limit, and anything under 2 s as 2 s).
        var perHost = timeout
        if let seconds = conninfo.value("connect_timeout").flatMap({ Int($0) }), seconds > 0 {
            perHost = min(timeout, .seconds(max(seconds, 2)))
        }
        var failures: [PostgresError] = []
        for attempt in conninfo.hostAttempts() {
            do {
                return try connectOnce(attempt, applicationName: applicationName, timeout: perHost)
            } catch {
                failures.append(error)
            }
        }
        throw combined(failures)
    }

    private static func connectOnce(
        _ options: [PostgresConninfo.Option], applicationName: String?, timeout: Duration
    ) throws(PostgresError) -> OpaquePointer {
        var pairs = options.map { ($0.keyword, $0.value) }
        if let applicationName {
            pairs.removeAll { $0.0 == "application_name" }
            pairs.append(("application_name", applicationName))
        }
        let deadline = CallDeadline(after: timeout)
        guard let connection = withCStringArrays(pairs, { PQconnectStartParams($0, $1, 0) }) else {
            throw PostgresError(kind: .other, message: "libpq could not allocate a connection")
        }
        // Before any message arrives: libpq's default notice processor prints on stderr.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        // A refused connection's SQLSTATE reaches the caller only inside the message, and only in
        // the verbose form ("FATAL:  28P01: password authentication failed ...").
        PQsetErrorVerbosity(connection, PQERRORS_VERBOSE)
        var state = PGRES_POLLING_WRITING
        while true {
            if PQstatus(connection) == CONNECTION_BAD || state == PGRES_POLLING_FAILED {
                throw refused(connection)
            }
            if state == PGRES_POLLING_OK { break }
            let socket = PQsocket(connection)
            if socket < 0 { throw refused(connection) }
            let events = state == PGRES_POLLING_READING ? Int16(POLLIN) : Int16(POLLOUT)
            if case .timedOut = deadline.wait(for: events, on: socket) {
                let host = PQhost(connection).map { String(cString: $0) } ?? "the server"
                PQfinish(connection)
                throw PostgresError(
                    kind: .unreachable, message: "no answer from \(host) within \(deadline.limitDescription) while connecting")
            }
            state = PQconnectPoll(connection)
        }
        PQsetErrorVerbosity(connection, PQERRORS_DEFAULT)
        // Non-blocking, so sending a large batch never blocks on a full socket (PQflush says so).
        guard PQsetnonblocking(connection, 1) == 0 else { throw refused(connection) }
        return connection
    }

    /// The error of a connect that failed, classified, with the connection freed.
    private static func refused(_ connection: OpaquePointer) -> PostgresError {
        defer { PQfinish(connection) }
        let verbose = String(cString: PQerrorMessage(connection))
        let (sqlstate, message) = withoutCodeAndLocation(verbose)
        if let sqlstate {
            return PostgresError(sqlstate: sqlstate, message: message, sql: nil)
        }
        let kind: PostgresError.Kind
        if PQconnectionNeedsPassword(connection) == 1 {
            // The server asked for a password and none was given (libpq's own refusal, no SQLSTATE).
            kind = .authentication
        } else if message.contains("read-only") || message.contains("hot standby") {
            // target_session_attrs refused the server it reached (libpq's English text).
            kind = .readOnly
        } else {
            kind = .unreachable
        }
        return PostgresError(kind: kind, message: message)
    }

    /// The SQLSTATE a verbose connect message carries, and the message without it and without
    /// its `LOCATION:` line (the server's source file).
    static func withoutCodeAndLocation(_ verbose: String) -> (sqlstate: String?, message: String) {
        var sqlstate: String?
        var lines: [String] = []
        for line in verbose.split(separator: "\n") where !line.hasPrefix("LOCATION:") {
            var text = String(line)
            // "...failed: FATAL:  28P01: password authentication failed for user ..."
            if let marker = text.firstRange(of: ":  ") {
                let after = text[marker.upperBound...]
                let code = after.prefix(5)
                if code.count == 5, code.allSatisfy({ $0.isNumber || ($0.isUppercase && $0.isASCII) }),
                    after.dropFirst(5).hasPrefix(": ")
                {
                    sqlstate = sqlstate ?? String(code)
                    text = String(text[..<marker.upperBound]) + after.dropFirst(7)
                }
            }
            lines.append(text)
        }
        return (sqlstate, oneLine(lines.joined(separator: "\n")))
    }

    /// One error for every host tried: the most telling kind (a refusal that names a cause
    /// before a host that could not be reached or was read-only), every host's message.
    private static func combined(_ failures: [PostgresError]) -> PostgresError {
        guard failures.count > 1 else {
            return failures.first ?? PostgresError(kind: .unreachable, message: "no host to connect to")
        }
        let telling =
            failures.first { $0.kind != .unreachable && $0.kind != .readOnly }
            ?? failures.first { $0.kind == .readOnly } ?? failures[0]
        return PostgresError(
            kind: telling.kind, sqlstate: telling.sqlstate, message: failures.map(\.message).joined(separator: "; "))
    }

    /// Calls `body` with `pairs` as two NULL-terminated arrays of C strings (libpq's keywords and
    /// values), valid for the call only.
    private static func withCStringArrays<R>(
        _ pairs: [(String, String)],
        _ body: (UnsafePointer<UnsafePointer<CChar>?>, UnsafePointer<UnsafePointer<CChar>?>) -> R
    ) -> R {
        let keywords = pairs.map { strdup($0.0) }
        let values = pairs.map { strdup($0.1) }
        defer { for pointer in keywords + values { free(pointer) } }
        let keywordArray = keywords.map { UnsafePointer($0) } + [nil]
        let valueArray = values.map { UnsafePointer($0) } + [nil]
        return keywordArray.withUnsafeBufferPointer { keys in
            valueArray.withUnsafeBufferPointer { body(keys.baseAddress!, $0.baseAddress!) }
        }
    }
}
