/// The error table's rows of issue 50: `POST /wakeup/diagnostics`, which validates its token as
/// the other routes do and its optional `widgetPushToken` as a registration does (SPEC 3). The
/// route only reads: a row wrongly accepted would answer 200, which the row's status catches.
extension ErrorRow {
    static let diagnostics = [
        ErrorRow(
            name: "diagnostics without a token", path: "/wakeup/diagnostics", body: "{\"widgetPushToken\":null}",
            status: 400, error: "pushToken is required"),
        ErrorRow(
            name: "diagnostics with a short token", path: "/dev/wakeup/diagnostics", body: unregisterBody("abcd"), status: 400,
            error: "pushToken is too short (at least 64 hex characters)"),
        ErrorRow(
            name: "diagnostics with a body that is not JSON", path: "/prod/wakeup/diagnostics", body: "pushToken=\(seedToken)",
            status: 400, error: "Request body is not valid JSON"),
        ErrorRow(
            name: "diagnostics with a widget token that is not hex", path: "/wakeup/diagnostics",
            body: "{\"pushToken\":\"\(seedToken)\",\"widgetPushToken\":\"\(String(testToken(31).dropLast(1)))g\"}", status: 400,
            error: "widgetPushToken must contain hex digits only"),
        ErrorRow(
            name: "diagnostics with the device token as widget token", path: "/wakeup/diagnostics",
            body: "{\"pushToken\":\"\(seedToken)\",\"widgetPushToken\":\"\(seedToken)\"}", status: 400,
            error: "widgetPushToken must be the extension's own token, not pushToken"),
        ErrorRow(
            name: "GET on diagnostics", method: "GET", path: "/wakeup/diagnostics", status: 405,
            error: "Method not allowed; use POST", allow: "POST"),
        ErrorRow(
            name: "diagnostics as text/plain", path: "/wakeup/diagnostics", body: unregisterBody(seedToken),
            contentType: "text/plain", status: 415, error: "Content-Type must be application/json"),
    ]
}
