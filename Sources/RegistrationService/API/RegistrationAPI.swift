import FastCGIWire
import LiveActivityDomain
import LiveActivityFigures
import LiveActivityStore

/// The JSON API of SPEC section 3 as a plain function from request to response: no transport in it,
/// so tests call it directly and the FastCGI and CGI front ends share it.
///
/// Not thread-safe: each responder worker owns one; they share one `RegistrationWriter`.
public final class RegistrationAPI: HTTPResponder {
    /// Bodies above this size are refused with 413 (nginx enforces the same limit).
    public static let maximumBodySize = 4096
    /// The request parameter an nginx location sets to pick the APNs environment (`/dev/wakeup`).
    public static let environmentParameter = "LIVEACTIVITY_APNS_ENVIRONMENT"
    /// The request parameter an nginx location sets to pick the app (SPEC 3, 6); none: the default app.
    public static let appParameter = "LIVEACTIVITY_APP"

    public let configuration: Configuration
    /// The clock registration and ack times go by: the database server's on PostgreSQL.
    private var clock: Clock { writer.clock(configuration.clock) }
    /// The body's and the nginx location's halves of the environment rule (SPEC 3), per app.
    private let environments: [AppName: EnvironmentChoice]
    /// The apps served, for the 400 of one that is not.
    private let appNames: [String]
    /// The database, shared by every worker of the process (group commit).
    private let writer: RegistrationWriter
    /// Where one-line fault reports go (stderr in the executables).
    private let log: (String) -> Void
    /// Shared by the workers of a process, so a lasting fault or a repeated refusal is a line a
    /// minute, not one per request.
    private let faults: FaultLog
    /// What `faults` measures its minutes on; the wall clock (`configuration.clock`) is for the
    /// times stored and shown, this for how long passed.
    private let elapsed: MonotonicClock

    /// The diagnostics' per-token limit, shared by the workers of a process as `faults` is.
    private let diagnosticsLimit: DiagnosticsLimit

    /// The database as a log line names it (never a password).
    private let location: String

    /// `writer`, `faults` and `diagnosticsLimit`: the process's shared ones (by default new for
    /// this API alone). `elapsed`: the monotonic clock, which tests may move.
    public init(
        configuration: Configuration, writer: RegistrationWriter, location: String, faults: FaultLog = FaultLog(),
        diagnosticsLimit: DiagnosticsLimit = DiagnosticsLimit(), elapsed: MonotonicClock = MonotonicClock(),
        log: @escaping (String) -> Void
    ) {
        self.configuration = configuration
        self.elapsed = elapsed
        self.diagnosticsLimit = diagnosticsLimit
        environments = Dictionary(
            uniqueKeysWithValues: configuration.apps.map { app, environments in (app, EnvironmentChoice(environments, of: app)) })
        appNames = configuration.apps.keys.sorted().map(\.rawValue)
        self.writer = writer
        self.location = location
        self.faults = faults
        self.log = log
    }

    /// Answers one request. Never throws: every failure becomes a JSON error response.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        defer { reportReplacedFile() }
        do {
            return try route(request)
        } catch let error as APIError {
            return error.response
        } catch {
            return failure(error).response
        }
    }

    /// The writer reopens a connection gone stale under it (a database file deleted or replaced:
    /// writing on would go to an unlinked inode and be lost); say so once per cause.
    private func reportReplacedFile() {
        for staleness in writer.takeStaleness() where faults.firstReport(ofStale: staleness.key) {
            log(staleness.line)
        }
    }

    private func route(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let route = Route.matching(request.path) else { throw APIError.notFound }
        // The responder's own rule, whatever the web server in front of it does (SPEC 3): a
        // location written without nginx's `allow` lines, a CGI server or a socket client
        // does not publish the figures. Before the method, so a stranger learns nothing more.
        if route.isMonitoring {
            let client = request.parameters["REMOTE_ADDR"]
            guard configuration.monitorAccess.allows(remoteAddress: client, absentIsLocal: request.gateway == .cgi) else {
                throw APIError.forbidden
            }
        }
        guard route.accepts(request.method) else { throw APIError.methodNotAllowed(allow: route.allow) }
        switch route {
        // Reads only: a read-only or full database still answers them, so they clear no fault.
        case .health: return try health()
        case .metrics: return try metrics()
        case .status: return status()
        case .register, .unregister, .ack, .diagnostics: break
        }
        guard !request.bodyTooLarge, request.body.count <= Self.maximumBodySize else {
            throw APIError.payloadTooLarge
        }
        if let contentType = request.contentType, !Self.isJSON(contentType) {
            throw APIError.unsupportedMediaType
        }
        let (app, choice) = try self.app(of: request)
        // A read: it clears no fault either.
        if route == .diagnostics { return try diagnostics(request.body, app: app) }
        var answer = "{\"success\":true}"
        switch route {
        case .register:
            let body = try RegistrationBody.parse(request.body, choice: choice)
            try register(body, app: app, choice: choice, parameter: request.parameters[Self.environmentParameter])
            answer = Self.answer(to: body, policy: configuration.intervalPolicy)
        case .unregister: try commit(.unregister(try RegistrationBody.unregistration(request.body), app: app))
        case .ack:
            let (token, report) = try RegistrationBody.acknowledgement(request.body)
            try commit(.acknowledge(token, app: app, now: clock.now(), policy: configuration.intervalPolicy, report: report))
        case .diagnostics, .health, .metrics, .status: break
        }
        if let line = faults.succeeded(now: elapsed.now()) { log(line) }
        return .json(200, answer)
    }

    /// The app the nginx location names (`LIVEACTIVITY_APP`; none or empty: the default app) and
    /// its environments. One the operator did not configure is a 400 listing those served (SPEC
    /// 3), and a line a minute for the operator: it is the nginx config's mistake, not the app's.
    private func app(of request: HTTPRequest) throws(APIError) -> (AppName, EnvironmentChoice) {
        guard let name = request.parameters[Self.appParameter], !name.isEmpty else {
            return (.defaultApp, environments[.defaultApp] ?? EnvironmentChoice(configuration))
        }
        guard let app = AppName(name), let choice = environments[app] else {
            say(
                "unknown app parameter",
                "\(Self.appParameter)=\(OutsideText.quoted(name, limit: 40)) is not an app LIVEACTIVITY_APPS names; "
                    + "check the nginx config")
            throw APIError.unsupported("Unsupported app: \(name.prefix(64))", supported: appNames)
        }
        return (app, choice)
    }

    /// The answer to a registration (SPEC 3): an app that asked for an interval hears what
    /// applies, and one that sent a widget token the widgets interval that applies; older builds,
    /// which send neither, get the old answer.
    static func answer(to body: RegistrationBody, policy: IntervalPolicy) -> String {
        var answer = "{\"success\":true"
        if let asked = body.interval {
            answer += ",\"interval\":\(policy.effectiveSeconds(.wake, body.activityType, requested: asked))"
        }
        for other in body.others {
            guard let field = other.kind.intervalField else { continue }
            answer +=
                ",\"\(field)\":\(policy.effectiveSeconds(other.kind, body.activityType, requested: other.requestedInterval))"
        }
        // The app can tell the user what to turn on (SPEC 3): its wakes launch nothing as it is.
        if policy.cadence(body.activityType, requested: body.interval).pause(CadenceState(device: body.device)) == .paused {
            answer += ",\"paused\":\"backgroundRefresh\""
        }
        return answer + "}"
    }

    /// Commits `write`; the answer goes out only after it. What the write found never changes
    /// the answer: unregistering is idempotent, and an ack answers alike whether it matched a
    /// push or not (no oracle, SPEC 3; the store counts its outcome). The cap, the one outcome
    /// that does, comes as an error.
    private func commit(_ write: StoreWrite) throws {
        switch try writer.perform(write) {
        case .registered, .unregistered, .acknowledged: return
        }
    }

    /// `application/json`, with parameters such as `charset` allowed; an empty header counts as absent.
    /// Compared as bytes in the string's own UTF-8: Foundation's trimming and lowercasing cost more
    /// than the rest of routing, and walking `utf8` views (zip, prefix, drop) 3% of a registration.
    static func isJSON(_ contentType: String) -> Bool {
        var contentType = contentType
        return contentType.withUTF8 { bytes in
            var start = 0
            var end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
            while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
            while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
            guard start < end else { return true }
            let expected: StaticString = "application/json"
            guard end - start == expected.utf8CodeUnitCount else { return false }
            // ASCII case-insensitive, as media types are (RFC 9110 section 8.3.1).
            for offset in 0..<(end - start) {
                let byte = bytes[start + offset]
                guard (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == expected.utf8Start[offset] else { return false }
            }
            return true
        }
    }

    private func register(_ body: RegistrationBody, app: AppName, choice: EnvironmentChoice, parameter: String?) throws {
        let environment: APNsEnvironment
        do {
            environment = try choice.choose(body: body.environment, parameter: parameter)
        } catch {
            switch error {
            case .unsupported(let answer): throw answer
            case .badParameter(let value):
                // The value as any client of the socket may send it: escaped and cut (SPEC 7).
                say(
                    "bad environment parameter",
                    "\(Self.environmentParameter)=\(OutsideText.quoted(value, limit: 32)) is not production or sandbox; "
                        + "check the nginx config")
                throw APIError.internalError
            }
        }
        let now = clock.now()
        var registration = NewRegistration(
            token: body.token, activityType: body.activityType, environment: environment, registeredAt: now,
            expiresAt: now + configuration.expiryMilliseconds, requestedInterval: body.interval, others: body.others, app: app)
        registration.device = body.device
        let caps = RegistrationCaps(total: configuration.maxRegistrations, unproven: configuration.maxUnproven)
        do {
            try commit(.register(registration, caps: caps))
        } catch StoreError.capacityReached(let limit) {
            // The caps count per app (SPEC 6); a one-app deployment's line is as it always was.
            let holder = app.isDefault ? "the table holds" : "app \(app) holds"
            say("cap reached \(app)", "registration refused: \(holder) its cap of \(limit) (LIVEACTIVITY_MAX_REGISTRATIONS)")
            throw APIError.capacityReached
        } catch StoreError.unprovenCapacityReached(let limit, let environment) {
            let scope = app.isDefault ? environment.rawValue : "app \(app)'s \(environment.rawValue)"
            say(
                "unproven cap reached \(app) \(environment.rawValue)",
                "registration refused: \(limit) registrations in \(scope) were never answered 200 "
                    + "(LIVEACTIVITY_MAX_UNPROVEN); "
                    + "junk the mass-deletion guard holds, or a deployment that cannot deliver?")
            throw APIError.capacityReached
        }
    }

    /// What the backend knows of the token's registration in `app`, for the person holding the
    /// phone (SPEC 3): a few a minute per token (`DiagnosticsLimit`), then 429.
    private func diagnostics(_ body: [UInt8], app: AppName) throws -> HTTPResponse {
        let (token, widgetToken) = try RegistrationBody.diagnostics(body)
        let key = RegistrationKey(app: app, token: token)
        if let wait = diagnosticsLimit.admit(key, now: elapsed.now()) { throw APIError.tooManyRequests(retryAfter: wait) }
        guard let registration = try writer.read({ try $0.registration(key, attempts: true) }) else {
            return .json(200, Diagnosis.unregisteredJSON)
        }
        let diagnosis = Diagnosis(
            registration, policy: configuration.intervalPolicy, expiry: configuration.expiryMilliseconds, now: clock.now(),
            widgetToken: widgetToken)
        return .json(200, diagnosis.json)
    }

    private func health() throws -> HTTPResponse {
        let count = try writer.read { try $0.registrationCount() }
        return .json(200, "{\"status\":\"ok\",\"registrations\":\(count)}")
    }

    /// Prometheus text; the shipped nginx config lets only local addresses reach it.
    private func metrics() throws -> HTTPResponse {
        var snapshot = try writer.read { try MetricsSnapshot.gather($0) }
        snapshot.logLinesDropped = Log.dropped
        let text = PrometheusMetrics.render(snapshot)
        return HTTPResponse(
            status: 200,
            headers: [("Content-Type", PrometheusMetrics.contentType), ("Cache-Control", "no-store")],
            body: Array(text.utf8))
    }

    /// The operator's page (SPEC 3), from the figures `stats --json` prints; gathered under the
    /// connection's turn, rendered after it. A database fault is a short HTML page, not JSON.
    private func status() -> HTTPResponse {
        do {
            let report = try writer.read { try StatsReport.gather($0, now: clock.now()) }
            return .html(200, StatusPage.render(report))
        } catch {
            let answer = failure(error)
            return .html(answer.status, StatusPage.unavailable)
        }
    }

    /// A failure below the API: a database fault is logged in one line naming its cause and what
    /// to do (at most once a minute while it lasts, `FaultLog`) and answered without internals;
    /// anything else is an internal error.
    private func failure(_ error: any Error) -> APIError {
        if let stored = error as? StoredValueError {
            // A row this build cannot use answers as a fault of the database, not a crash (SPEC 7).
            say(
                "stored value",
                "database error: \(location): \(OutsideText.line(stored.description, limit: 200)); that request answers 503")
            return .unavailable
        }
        guard let fault = StoreFault.of(error) else {
            say("internal error", "internal error: \(OutsideText.line("\(error)", limit: 200))")
            return .internalError
        }
        let answer = Self.answer(to: fault)
        let line =
            "database error: \(fault.cause): \(location): \(OutsideText.line(fault.message, limit: 200)); \(fault.advice); "
            + "requests answer \(answer.status) until \(fault.passes ? "it passes" : "it is fixed")"
        if let text = faults.failed(cause: fault.cause, line: line, now: elapsed.now()) { log(text) }
        return answer
    }

    /// Logs `line` for a condition that may repeat per request: at most once a minute for the
    /// whole process, with the count of those not written (`FaultLog`).
    private func say(_ condition: String, _ line: String) {
        if let text = faults.repeated(condition, line: line, now: elapsed.now()) { log(text) }
    }

    /// Every database fault is a 503 (SPEC section 3): the service is unavailable, not broken by
    /// the request, and the app retries later. Whether it passes by itself or needs the operator
    /// is the log line's business, not the client's.
    static func answer(to fault: StoreFault) -> APIError { .unavailable }
}
