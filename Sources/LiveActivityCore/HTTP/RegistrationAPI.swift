/// The JSON API of SPEC section 3 as a plain function from request to response: no transport in it,
/// so tests call it directly and the FastCGI and CGI front ends share it.
///
/// Not thread-safe: each responder worker owns one; they share one `RegistrationWriter`.
public final class RegistrationAPI {
    /// Bodies above this size are refused with 413 (nginx enforces the same limit).
    public static let maximumBodySize = 4096

    public let configuration: Configuration
    /// The database, shared by every worker of the process (group commit).
    private let writer: RegistrationWriter
    /// Where one-line fault reports go (stderr in the executables).
    private let log: (String) -> Void

    /// `writer`: the process's shared one; by default a new one on `configuration.databasePath`.
    public init(configuration: Configuration, writer: RegistrationWriter? = nil, log: @escaping (String) -> Void) {
        self.configuration = configuration
        self.writer = writer ?? RegistrationWriter(path: configuration.databasePath, options: configuration.sqliteOptions)
        self.log = log
    }

    /// Answers one request. Never throws: every failure becomes a JSON error response.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        do {
            return try route(request)
        } catch let error as APIError {
            return error.response
        } catch {
            return storeFailure(error).response
        }
    }

    private enum Route { case register, unregister, health, metrics }

    private func route(_ request: HTTPRequest) throws -> HTTPResponse {
        let path = request.path
        let route: Route
        if path.hasSuffix("/wakeup/unregister") {
            route = .unregister
        } else if path.hasSuffix("/wakeup/health") {
            route = .health
        } else if path.hasSuffix("/wakeup/metrics") {
            route = .metrics
        } else if path.hasSuffix("/wakeup") {
            route = .register
        } else {
            throw APIError.notFound
        }

        if route == .health || route == .metrics {
            guard request.method == "GET" || request.method == "HEAD" else {
                throw APIError.methodNotAllowed(allow: "GET")
            }
            return route == .health ? try health() : try metrics()
        }
        guard request.method == "POST" else { throw APIError.methodNotAllowed(allow: "POST") }
        guard !request.bodyTooLarge, request.body.count <= Self.maximumBodySize else {
            throw APIError.payloadTooLarge
        }
        if let contentType = request.contentType, !Self.isJSON(contentType) {
            throw APIError.unsupportedMediaType
        }
        let body = try RegistrationBody.parse(request.body)
        switch route {
        case .register: try register(body, parameter: request.environmentParameter)
        case .unregister: _ = try writer.perform(.unregister(body.token))
        case .health, .metrics: break
        }
        return .json(200, "{\"success\":true}")
    }

    /// `application/json`, with parameters such as `charset` allowed; an empty header counts as absent.
    /// Compared as bytes: Foundation's trimming and lowercasing cost more than the rest of routing.
    static func isJSON(_ contentType: String) -> Bool {
        var mediaType = contentType.utf8.prefix { $0 != UInt8(ascii: ";") }[...]
        while let first = mediaType.first, first == 0x20 || first == 0x09 { mediaType = mediaType.dropFirst() }
        while let last = mediaType.last, last == 0x20 || last == 0x09 { mediaType = mediaType.dropLast() }
        guard !mediaType.isEmpty else { return true }
        let expected = "application/json".utf8
        guard mediaType.count == expected.count else { return false }
        // ASCII case-insensitive, as media types are (RFC 9110 section 8.3.1).
        return zip(mediaType, expected).allSatisfy { ($0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0) == $1 }
    }

    private func register(_ body: RegistrationBody, parameter: String?) throws {
        // Body first, then the nginx location's parameter, then the configured default.
        var environment = body.environment ?? configuration.defaultEnvironment
        if body.environment == nil, let parameter, !parameter.isEmpty {
            guard let fromLocation = APNsEnvironment(name: parameter) else {
                log("LIVEACTIVITY_APNS_ENVIRONMENT=\(parameter.prefix(32)) is not production or sandbox; check the nginx config")
                throw APIError.internalError
            }
            environment = fromLocation
        }
        let now = configuration.clock.now()
        do {
            _ = try writer.perform(
                .register(
                    body.token, type: body.activityType, environment: environment,
                    now: now, expiresAt: now + configuration.expiryMilliseconds,
                    cap: configuration.maxRegistrations))
        } catch StoreError.capacityReached(let limit) {
            log("registration refused: the table holds its cap of \(limit) (LIVEACTIVITY_MAX_REGISTRATIONS)")
            throw APIError.capacityReached
        }
    }

    private func health() throws -> HTTPResponse {
        let count = try writer.read { try $0.count() }
        return .json(200, "{\"status\":\"ok\",\"registrations\":\(count)}")
    }

    /// Prometheus text; the shipped nginx config lets only local addresses reach it.
    private func metrics() throws -> HTTPResponse {
        let text = try writer.read { try PrometheusMetrics.render($0.connection) }
        return HTTPResponse(
            status: 200,
            headers: [("Content-Type", PrometheusMetrics.contentType), ("Cache-Control", "no-store")],
            body: Array(text.utf8))
    }

    /// A database fault: logged in one line, answered without internals. Faults that pass
    /// (busy, full disk, read-only folder) are 503 so clients retry; the rest are 500.
    private func storeFailure(_ error: Error) -> APIError {
        guard let sqlite = error as? SQLiteError else {
            log("internal error: \(error)")
            return .internalError
        }
        log("database error: \(sqlite.message) (code \(sqlite.code)) at \(configuration.databasePath)")
        // A connection whose file vanished or broke is dropped and reopened on the next request.
        let transient: Set<Int32> = [5, 6, 8, 10, 13, 14]  // BUSY LOCKED READONLY IOERR FULL CANTOPEN
        if [8, 10, 11, 14, 26].contains(sqlite.primaryCode) { writer.discardConnection() }
        return transient.contains(sqlite.primaryCode) ? .unavailable : .internalError
    }
}
