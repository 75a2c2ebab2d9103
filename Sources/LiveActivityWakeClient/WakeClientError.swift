import Foundation

/// Why a call to the backend did not succeed, one case per answer of SPEC 3's error table, and
/// one for each request the client refuses to send (``invalidDeviceState(reason:)``,
/// ``insecureBaseURL(_:)``).
///
/// No description shows a token: the backend's own reasons never hold one, and any long run of
/// hex digits in a text from outside (a reason, a transport error) is cut to its first 8.
public enum WakeClientError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// 400: the backend refused the request, with its reason (`error`), and for an unsupported
    /// activity type, environment or app the values it does serve (`supported`).
    case badRequest(reason: String, supported: [String]?)
    /// 404: nothing answers at that URL: the base URL or the path prefix is wrong.
    case notFound
    /// 405: the URL is not one of the API's POST routes (a proxy in front rewrote it?).
    case methodNotAllowed
    /// 413: the body was over 4096 bytes (only an absurd activity type makes one).
    case payloadTooLarge
    /// 415: something between rewrote the Content-Type (the client always sends JSON).
    case unsupportedMediaType
    /// 429: too many requests from this client; retried as ``WakeRetryPolicy`` allows and still
    /// refused. `retryAfter` is the backend's last `Retry-After` in seconds, when it sent one.
    case rateLimited(retryAfter: Int?, attempts: Int)
    /// 503: the backend cannot take it now (its registration cap is reached, its database is
    /// busy, or the responder is down); retried as ``WakeRetryPolicy`` allows and still refused.
    case unavailable(reason: String?, retryAfter: Int?, attempts: Int)
    /// Another 5xx: the backend failed (500, 502, 504).
    case serverError(status: Int, reason: String?)
    /// A status the API does not answer (a captive portal, a proxy's own page).
    case unexpectedStatus(Int, reason: String?)
    /// A 200 whose body is not the API's `{"success": true, ...}`.
    case invalidAnswer
    /// The request did not complete: no network, a timeout, TLS refused (URLSession's error,
    /// its code and text).
    case transport(code: Int, message: String)
    /// Not sent: a ``DeviceState`` value the backend would refuse with a 400 (`activities` out of
    /// 0 to 64, or 0 in a registration). The app's bug, as a 400 is: retrying changes nothing.
    case invalidDeviceState(reason: String)
    /// Not sent: the base URL is not `https` (plain `http` is allowed to a loopback host only,
    /// for tests): the body holds the device token, which must not cross a network in clear.
    case insecureBaseURL(String)

    public var description: String {
        switch self {
        case .badRequest(let reason, let supported):
            "the backend refused the request (400): \(reason)"
                + (supported.map { "; supported: \($0.joined(separator: ", "))" } ?? "")
        case .notFound: "nothing answers at that URL (404): check the base URL and the path prefix"
        case .methodNotAllowed: "the URL is not a POST route of the API (405)"
        case .payloadTooLarge: "the request body is over 4096 bytes (413)"
        case .unsupportedMediaType: "the backend did not receive the body as JSON (415)"
        case .rateLimited(let retryAfter, let attempts):
            "too many requests (429) after \(attempts) attempt\(attempts == 1 ? "" : "s")"
                + (retryAfter.map { "; the backend asks to wait \($0) s" } ?? "")
        case .unavailable(let reason, let retryAfter, let attempts):
            "the backend is unavailable (503) after \(attempts) attempt\(attempts == 1 ? "" : "s")"
                + (reason.map { ": \($0)" } ?? "") + (retryAfter.map { "; it asks to wait \($0) s" } ?? "")
        case .serverError(let status, let reason): "the backend failed (\(status))" + (reason.map { ": \($0)" } ?? "")
        case .unexpectedStatus(let status, let reason):
            "an answer the API does not give (\(status))" + (reason.map { ": \($0)" } ?? "")
        case .invalidAnswer: "the backend's 200 is not the API's answer"
        case .transport(let code, let message): "the request did not complete (\(code)): \(message)"
        case .invalidDeviceState(let reason): "not sent: \(reason)"
        case .insecureBaseURL(let url):
            "not sent: the base URL \(url) is not https (plain http is allowed to a loopback host only, for tests)"
        }
    }

    public var errorDescription: String? { description }

    /// Whether trying again later may succeed (429, 503, another 5xx, a transport failure);
    /// a 400, 404, 405, 413 or 415 will be answered the same until the app or the URL changes,
    /// and a refused device state is refused again.
    public var isTemporary: Bool {
        switch self {
        case .rateLimited, .unavailable, .serverError, .transport: true
        default: false
        }
    }
}

/// Text from outside (a reason the server sent, a transport error) as the client may show it:
/// each run of 16 or more hex digits cut to its first 8 (a token never shows whole), control
/// characters as spaces, and at most 300 characters.
enum OutsideText {
    static func cleaned(_ text: String) -> String {
        var result = ""
        var run = ""
        func flush() {
            result += run.count >= 16 ? String(run.prefix(8)) + "…" : run
            run = ""
        }
        for character in text.prefix(300) {
            if character.isHexDigit {
                run.append(character)
            } else {
                flush()
                result.append(
                    character.isNewline || character.asciiValue.map { $0 < 0x20 || $0 == 0x7f } == true ? " " : character)
            }
        }
        flush()
        return result
    }
}
