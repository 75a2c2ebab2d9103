import FastCGIWire
import LiveActivityDomain

/// An error the API answers with: a status and `{"error": "..."}` (SPEC section 3's table).
/// Any other error becomes a generic 500 so internals never reach a client.
public struct APIError: Error, Equatable, Sendable {
    public var status: Int
    public var message: String
    /// The accepted values, for unsupported activityType / environment.
    public var supported: [String]?
    /// For 405: the `Allow` header.
    public var allow: String?
    /// For 429: the `Retry-After` header, whole seconds.
    public var retryAfter: Int?

    public static func badRequest(_ message: String) -> APIError {
        APIError(status: 400, message: message)
    }
    public static func unsupported(_ message: String, supported: [String]) -> APIError {
        APIError(status: 400, message: message, supported: supported)
    }
    public static func methodNotAllowed(allow: String) -> APIError {
        APIError(status: 405, message: "Method not allowed; use \(allow)", allow: allow)
    }
    public static let notFound = APIError(status: 404, message: "Not found")
    /// Diagnostics asked for one token more often than the responder answers (SPEC 3).
    public static func tooManyRequests(retryAfter seconds: Int) -> APIError {
        APIError(status: 429, message: "Too many requests; try again later", retryAfter: seconds)
    }
    /// A monitoring route asked by a client it is not for (SPEC 3); the same body nginx's `deny` gives.
    public static let forbidden = APIError(status: 403, message: "Forbidden")
    public static let payloadTooLarge = APIError(
        status: 413, message: "Request body is larger than \(RegistrationAPI.maximumBodySize) bytes")
    public static let unsupportedMediaType = APIError(status: 415, message: "Content-Type must be application/json")
    public static let capacityReached = APIError(status: 503, message: "Registration capacity reached; try again later")
    public static let unavailable = APIError(status: 503, message: "Service temporarily unavailable; try again later")
    public static let internalError = APIError(status: 500, message: "Internal server error")

    /// The JSON response for this error.
    public var response: HTTPResponse {
        var body = "{\"error\":" + JSONText.string(message)
        if let supported { body += ",\"supported\":" + JSONText.array(supported) }
        body += "}"
        var headers: [(name: String, value: String)] = []
        if let allow { headers.append(("Allow", allow)) }
        if let retryAfter { headers.append(("Retry-After", String(retryAfter))) }
        return .json(status, body, extraHeaders: headers)
    }
}
