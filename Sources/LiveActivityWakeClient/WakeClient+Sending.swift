import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// MARK: - Bodies (SPEC 3)

/// `POST /wakeup`'s body; nil fields are left out (the synthesized `encode` skips them).
struct RegisterBody: Encodable {
    let pushToken: String
    let activityType: String
    let environment: String?
    let interval: Int?
    let widgetPushToken: String?
    let widgetInterval: Int?
    // The device state (SPEC 3): only what the app knows.
    var activities: Int? = nil
    var backgroundRefresh: String? = nil
    var lowPower: Bool? = nil
}

/// `POST /wakeup/ack`'s body: the token, and the device state and `changed` the app knows.
struct AckBody: Encodable {
    let pushToken: String
    var activities: Int? = nil
    var backgroundRefresh: String? = nil
    var lowPower: Bool? = nil
    var changed: Bool? = nil
}

/// The body of unregister.
struct TokenBody: Encodable {
    let pushToken: String
}

/// `POST /wakeup/diagnostics`'s body: the device token, and the widget extension's when the app
/// has one (the answer then says whether the registration has its widgets target).
struct DiagnosticsBody: Encodable {
    let pushToken: String
    var widgetPushToken: String? = nil
}

/// A 200's fields the client reads.
struct SuccessAnswer {
    let interval: Int?
    let widgetInterval: Int?
    var paused: String? = nil
}

// MARK: - One call, its retries and its answer

extension WakeClient {
    /// Sends `body` to `route`, retrying a 429 or 503 as the policy says, and reads the answer.
    func call(_ route: String, body: some Encodable, what: String) async throws -> SuccessAnswer {
        let data = try await exchange(route, body: body, what: what)
        do {
            let answer = try Self.read(status: 200, data)
            log?(
                "\(what): 200" + (answer.interval.map { ", interval \($0) s" } ?? "")
                    + (answer.widgetInterval.map { ", widget interval \($0) s" } ?? "")
                    + (answer.paused.map { ", paused: \($0)" } ?? ""))
            return answer
        } catch {
            log?("\(what): \(error)")
            throw error
        }
    }

    /// Sends `body` to `route` and returns a 200's body, retrying a 429 or 503 as the policy says
    /// (each wait spread by its jitter); any other answer is thrown as its ``WakeClientError``.
    /// Nothing is sent to a base URL that is not https (``insecureBaseURL(_:)``).
    func exchange(_ route: String, body: some Encodable, what: String) async throws -> Data {
        if let refusal = Self.insecurity(of: baseURL) {
            log?("\(what): \(refusal)")
            throw refusal
        }
        var request = URLRequest(
            url: url(for: route), cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: requestTimeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.httpBody = try JSONEncoder().encode(body)

        var attempt = 1
        while true {
            let data: Data
            let response: HTTPURLResponse
            do {
                (data, response) = try await transport.send(request)
            } catch let error as CancellationError {
                throw error
            } catch let error as URLError where error.code == .cancelled {
                throw CancellationError()
            } catch {
                let nsError = error as NSError
                let failure = WakeClientError.transport(
                    code: nsError.code, message: OutsideText.cleaned(nsError.localizedDescription))
                log?("\(what): \(failure)")
                throw failure
            }
            let status = response.statusCode
            if status == 200 { return data }
            if status == 429 || status == 503 {
                let retryAfter = Self.retryAfter(response)
                if let wait = retryPolicy.wait(after: attempt, retryAfter: retryAfter, spread: spread()) {
                    log?("\(what): \(status), retry \(attempt + 1) of \(retryPolicy.maximumAttempts) in \(Self.seconds(wait))")
                    try await sleep(wait)
                    attempt += 1
                    continue
                }
                let failure: WakeClientError =
                    status == 429
                    ? .rateLimited(retryAfter: retryAfter, attempts: attempt)
                    : .unavailable(reason: Self.errorReason(data), retryAfter: retryAfter, attempts: attempt)
                log?("\(what): \(failure)")
                throw failure
            }
            let failure = Self.failure(status: status, data)
            log?("\(what): \(failure)")
            throw failure
        }
    }

    /// Why nothing may be sent to `baseURL`, nil when it may: https, or plain http to a loopback
    /// host (`localhost`, 127.0.0.0/8, ::1), which never leaves the machine.
    static func insecurity(of baseURL: URL) -> WakeClientError? {
        let scheme = baseURL.scheme?.lowercased() ?? ""
        var host = baseURL.host?.lowercased() ?? ""
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if scheme == "https" && !host.isEmpty { return nil }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        let loopbackIPv4 = octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
        let loopback = host == "localhost" || host.hasSuffix(".localhost") || host == "::1" || loopbackIPv4
        if scheme == "http" && loopback { return nil }
        return .insecureBaseURL(OutsideText.cleaned(scheme.isEmpty ? baseURL.absoluteString : "\(scheme)://\(host)"))
    }

    /// The answer to anything but a 429 or 503: a 200's intervals, or its typed error.
    static func read(status: Int, _ data: Data) throws(WakeClientError) -> SuccessAnswer {
        guard status == 200 else { throw failure(status: status, data) }
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        guard let object, object["success"] as? Bool == true else { throw .invalidAnswer }
        return SuccessAnswer(
            interval: wholeNumber(object["interval"]), widgetInterval: wholeNumber(object["widgetInterval"]),
            paused: (object["paused"] as? String).map(OutsideText.cleaned).flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The typed error of an answer that is neither a 200 nor retried.
    static func failure(status: Int, _ data: Data) -> WakeClientError {
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        let reason = errorReason(data)
        switch status {
        case 400:
            let supported = (object?["supported"] as? [Any])?.compactMap { ($0 as? String).map(OutsideText.cleaned) }
            return .badRequest(reason: reason ?? "Bad request", supported: supported)
        case 404: return .notFound
        case 405: return .methodNotAllowed
        case 413: return .payloadTooLarge
        case 415: return .unsupportedMediaType
        case 429: return .rateLimited(retryAfter: nil, attempts: 1)
        case 500...599: return .serverError(status: status, reason: reason)
        default: return .unexpectedStatus(status, reason: reason)
        }
    }

    /// The `error` of an answer's JSON body, cleaned for showing.
    static func errorReason(_ data: Data) -> String? {
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        return (object?["error"] as? String).map(OutsideText.cleaned)
    }

    /// `Retry-After` as whole seconds (RFC 9110's delay-seconds); nil when absent, or an HTTP
    /// date, which the backend and its nginx never send.
    static func retryAfter(_ response: HTTPURLResponse) -> Int? {
        guard let text = response.value(forHTTPHeaderField: "Retry-After")?.trimmingCharacters(in: .whitespaces),
            !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        return Int(text)
    }

    /// A JSON number that is a whole number (`900` or `900.0`).
    static func wholeNumber(_ value: Any?) -> Int? {
        if let number = value as? Int { return number }
        if let number = value as? Double, number.rounded() == number, abs(number) < 1e15 { return Int(number) }
        return nil
    }

    static func seconds(_ value: Double) -> String {
        value.rounded() == value ? "\(Int(value)) s" : "\(value) s"
    }
}
