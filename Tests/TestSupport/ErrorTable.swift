/// SPEC section 3's error table as one list of requests and the answers they must get, run both
/// against the API in-process (RegistrationServiceTests) and through nginx (IntegrationTests).
/// Before each row the database holds `ErrorRow.seedToken`; every row must leave it unchanged.
/// Rows use the seed token wherever a wrong acceptance would otherwise change its row.
public struct ErrorRow: Sendable, CustomStringConvertible {
    public var name: String
    public var method = "POST"
    public var path = "/wakeup"
    /// nil: no body (and no Content-Type).
    public var body: String?
    public var contentType: String? = "application/json"
    public var status: Int
    public var error: String
    /// The accepted values a 400 lists.
    public var supported: [String]?
    /// The `Allow` header of a 405.
    public var allow: String?

    public var description: String { name }

    /// The registration in the database when a row is sent.
    public static let seedToken = testToken(7)

    /// The exact JSON body of the answer.
    public var expectedBody: String {
        var text = "{\"error\":\"\(error)\""
        if let supported { text += ",\"supported\":[" + supported.map { "\"\($0)\"" }.joined(separator: ",") + "]" }
        return text + "}"
    }

    /// Headers every answer carries (SPEC section 3), with their values; `Allow` is checked apart.
    public static let expectedHeaders = [
        ("Content-Type", "application/json"), ("Cache-Control", "no-store"), ("Access-Control-Allow-Origin", "*"),
    ]

    /// The FastCGI parameters nginx sends for the row (liveactivity-fastcgi.conf).
    public var parameters: [String: String] {
        var parameters = ["REQUEST_METHOD": method, "DOCUMENT_URI": path, "REQUEST_URI": path]
        if let body {
            parameters["CONTENT_LENGTH"] = String(body.utf8.count)
            if let contentType { parameters["CONTENT_TYPE"] = contentType }
        }
        return parameters
    }
}

extension ErrorRow {
    private static let seed = seedToken
    private static let types = ["charging", "debug"]
    private static let environments = ["production", "sandbox"]

    /// Every row, by the table's cases.
    public static let all: [ErrorRow] =
        malformed + badTokens + routing + limits + intervals + acks + widgets
        + deviceState + diagnostics

    /// Rows only nginx answers: the shipped locations pass nothing else to the responder, which
    /// itself routes on the path's end (so in-process these would reach it and succeed).
    public static let nginxOnly = [
        ErrorRow(name: "unknown prefix", path: "/test/wakeup", body: registerBody(seed), status: 404, error: "Not found"),
        ErrorRow(name: "health under a prefix", method: "GET", path: "/dev/wakeup/health", status: 404, error: "Not found"),
    ]

    /// Body is not JSON, not an object, or a field has the wrong type; an unsupported value.
    static let malformed = [
        ErrorRow(name: "body is not JSON", body: "pushToken=\(seed)", status: 400, error: "Request body is not valid JSON"),
        ErrorRow(
            name: "body is cut short", body: "{\"pushToken\": \"\(seed)\"", status: 400, error: "Request body is not valid JSON"),
        ErrorRow(name: "body is an array", body: "[\"\(seed)\"]", status: 400, error: "Request body must be a JSON object"),
        ErrorRow(name: "body is a string", body: "\"text\"", status: 400, error: "Request body must be a JSON object"),
        ErrorRow(name: "body is empty", body: "", status: 400, error: "Request body must be a JSON object"),
        ErrorRow(name: "pushToken is a number", body: "{\"pushToken\":12345}", status: 400, error: "pushToken must be a string"),
        ErrorRow(
            name: "pushToken is an array", body: "{\"pushToken\":[\"ab\"]}", status: 400, error: "pushToken must be a string"),
        ErrorRow(
            name: "activityType is a number", body: "{\"pushToken\":\"\(seed)\",\"activityType\":1}", status: 400,
            error: "activityType must be a string"),
        ErrorRow(
            name: "environment is an object", body: "{\"pushToken\":\"\(seed)\",\"environment\":{}}", status: 400,
            error: "environment must be a string"),
        ErrorRow(
            name: "environment is a boolean", body: "{\"pushToken\":\"\(seed)\",\"environment\":true}", status: 400,
            error: "environment must be a string"),
        ErrorRow(
            name: "activityType is unsupported", body: registerBody(seed, type: "parking"), status: 400,
            error: "Unsupported activityType: parking", supported: types),
        ErrorRow(
            name: "environment is unsupported", body: registerBody(seed, environment: "staging"), status: 400,
            error: "Unsupported environment: staging", supported: environments),
    ]

    /// pushToken missing, not hex, odd length, too short or too long; on both routes.
    static let badTokens = [
        ErrorRow(
            name: "pushToken is missing", body: "{\"activityType\":\"charging\"}", status: 400, error: "pushToken is required"),
        ErrorRow(name: "pushToken is null", body: "{\"pushToken\":null}", status: 400, error: "pushToken is required"),
        ErrorRow(
            name: "pushToken is too short", body: registerBody(String(seed.prefix(62))), status: 400,
            error: "pushToken is too short (at least 64 hex characters)"),
        ErrorRow(
            name: "pushToken is empty", body: registerBody(""), status: 400,
            error: "pushToken is too short (at least 64 hex characters)"),
        ErrorRow(
            name: "pushToken is too long", body: registerBody(seed + testToken(8, length: 138)), status: 400,
            error: "pushToken is too long (at most 200 hex characters)"),
        ErrorRow(
            name: "pushToken has odd length", body: registerBody(seed + "a"), status: 400,
            error: "pushToken must have an even number of hex digits"),
        ErrorRow(
            name: "pushToken is not hex", body: registerBody(String(seed.dropLast(2)) + "zz"), status: 400,
            error: "pushToken must contain hex digits only"),
        ErrorRow(
            name: "pushToken holds a space", body: registerBody(String(seed.dropLast(2)) + " 1"), status: 400,
            error: "pushToken must contain hex digits only"),
        ErrorRow(
            name: "unregister without a token", path: "/wakeup/unregister", body: "{}", status: 400,
            error: "pushToken is required"),
        ErrorRow(
            name: "unregister with a short token", path: "/dev/wakeup/unregister", body: unregisterBody("abcd"), status: 400,
            error: "pushToken is too short (at least 64 hex characters)"),
        ErrorRow(
            name: "unregister with a token that is not hex", path: "/wakeup/unregister",
            body: unregisterBody(String(seed.dropLast(1)) + "g"), status: 400, error: "pushToken must contain hex digits only"),
    ]

    /// Unknown paths (404) and other methods on the routes (405).
    static let routing =
        ["/wakeup/other", "/wakeup/unregister/x", "/wakeupx", "/wake", "/", "/index.php"].map { path in
            ErrorRow(name: "unknown path \(path)", path: path, body: registerBody(seed), status: 404, error: "Not found")
        } + [
            ErrorRow(
                name: "GET on register", method: "GET", path: "/wakeup", status: 405, error: "Method not allowed; use POST",
                allow: "POST"),
            ErrorRow(
                name: "PUT on unregister", method: "PUT", path: "/wakeup/unregister", body: unregisterBody(seed), status: 405,
                error: "Method not allowed; use POST", allow: "POST"),
            ErrorRow(
                name: "DELETE on unregister", method: "DELETE", path: "/prod/wakeup/unregister", body: unregisterBody(seed),
                status: 405, error: "Method not allowed; use POST", allow: "POST"),
            ErrorRow(
                name: "PATCH on register", method: "PATCH", path: "/dev/wakeup", body: registerBody(seed, type: "debug"),
                status: 405, error: "Method not allowed; use POST", allow: "POST"),
            ErrorRow(
                name: "POST on health", path: "/wakeup/health", body: "{}", status: 405, error: "Method not allowed; use GET",
                allow: "GET"),
            ErrorRow(
                name: "POST on status", path: "/wakeup/status", body: "{}", status: 405,
                error: "Method not allowed; use GET, HEAD", allow: "GET, HEAD"),
        ]

    /// A body over 4096 bytes (413); a Content-Type present and not JSON (415).
    static let limits =
        [
            ErrorRow(
                name: "body over 4096 bytes",
                body: "{\"pushToken\":\"\(seed)\",\"pad\":\"\(String(repeating: "x", count: 4096))\"}", status: 413,
                error: "Request body is larger than 4096 bytes"),
            ErrorRow(
                name: "body of spaces over 4096 bytes", body: registerBody(seed) + String(repeating: " ", count: 4096),
                status: 413, error: "Request body is larger than 4096 bytes"),
        ]
        + ["text/plain", "application/x-www-form-urlencoded", "application/jsonx", "multipart/form-data; boundary=x"].map {
            (mediaType: String) in
            ErrorRow(
                name: "Content-Type \(mediaType)", body: registerBody(seed, type: "debug"), contentType: mediaType, status: 415,
                error: "Content-Type must be application/json")
        }
}
