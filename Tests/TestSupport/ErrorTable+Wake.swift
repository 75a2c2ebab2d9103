/// The error table's rows of issue 16: an app's `interval` on registration, and `POST
/// /wakeup/ack`, which validates as unregister does (SPEC 3).
extension ErrorRow {
    private static let intervalError = "interval must be whole seconds from 1 to 86400"

    /// A registration of the seed token as debug (a wrong acceptance would change its row) with
    /// `interval` as raw JSON text.
    static func intervalBody(_ intervalJSON: String) -> String {
        "{\"pushToken\":\"\(seedToken)\",\"activityType\":\"debug\",\"interval\":\(intervalJSON)}"
    }

    /// A wrong type, zero, negative, fractional, past a day, and huge.
    static let intervals = ["\"900\"", "true", "0", "-5", "1.5", "86401", "1e300", "[900]", "{}", "0.0", "-0"].map { json in
        ErrorRow(name: "interval \(json)", body: intervalBody(json), status: 400, error: intervalError)
    }

    /// An ack with a missing, mistyped or malformed token, and the route's method, size and type checks.
    static let acks = [
        ErrorRow(
            name: "ack without a token", path: "/wakeup/ack", body: "{\"interval\":900}", status: 400,
            error: "pushToken is required"),
        ErrorRow(
            name: "ack with a null token", path: "/wakeup/ack", body: "{\"pushToken\":null}", status: 400,
            error: "pushToken is required"),
        ErrorRow(
            name: "ack with a number token", path: "/wakeup/ack", body: "{\"pushToken\":7}", status: 400,
            error: "pushToken must be a string"),
        ErrorRow(
            name: "ack with a token that is not hex", path: "/dev/wakeup/ack",
            body: unregisterBody(String(seedToken.dropLast(1)) + "g"), status: 400,
            error: "pushToken must contain hex digits only"),
        ErrorRow(
            name: "ack with a short token", path: "/wakeup/ack", body: unregisterBody(String(seedToken.prefix(62))), status: 400,
            error: "pushToken is too short (at least 64 hex characters)"),
        ErrorRow(
            name: "ack with an odd-length token", path: "/prod/wakeup/ack", body: unregisterBody(seedToken + "a"), status: 400,
            error: "pushToken must have an even number of hex digits"),
        ErrorRow(
            name: "ack body is not JSON", path: "/wakeup/ack", body: "ack", status: 400, error: "Request body is not valid JSON"),
        ErrorRow(
            name: "ack body is an array", path: "/wakeup/ack", body: "[]", status: 400,
            error: "Request body must be a JSON object"),
        ErrorRow(
            name: "GET on ack", method: "GET", path: "/wakeup/ack", status: 405, error: "Method not allowed; use POST",
            allow: "POST"),
        ErrorRow(
            name: "ack over 4096 bytes", path: "/wakeup/ack",
            body: "{\"pushToken\":\"\(seedToken)\",\"pad\":\"\(String(repeating: "x", count: 4096))\"}", status: 413,
            error: "Request body is larger than 4096 bytes"),
        ErrorRow(
            name: "ack as text/plain", path: "/wakeup/ack", body: unregisterBody(seedToken), contentType: "text/plain",
            status: 415, error: "Content-Type must be application/json"),
        ErrorRow(
            name: "unknown path under ack", path: "/wakeup/ack/x", body: unregisterBody(seedToken), status: 404,
            error: "Not found"),
    ]
}
