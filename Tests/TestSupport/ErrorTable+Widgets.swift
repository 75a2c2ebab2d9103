/// The error table's rows of the widgets target (issue 31): `widgetPushToken` checked as
/// `pushToken` is, and never the same token; `widgetInterval` as `interval` is (SPEC 3).
extension ErrorRow {
    /// The widget extension's token the rows send beside the seed (which the seed registered with).
    public static let widgetToken = testToken(31)

    /// A registration of the seed token as debug with `members` (raw JSON) beside it: a wrong
    /// acceptance would change its row, or drop its widgets target.
    static func widgetBody(_ members: String) -> String {
        "{\"pushToken\":\"\(seedToken)\",\"activityType\":\"debug\",\(members)}"
    }

    static let widgets: [ErrorRow] =
        [
            (
                "widgetPushToken not hex", "\"widgetPushToken\":\"\(widgetToken.dropLast())g\"",
                "widgetPushToken must contain hex digits only"
            ),
            (
                "widgetPushToken of odd length", "\"widgetPushToken\":\"\(widgetToken)a\"",
                "widgetPushToken must have an even number of hex digits"
            ),
            (
                "widgetPushToken too short", "\"widgetPushToken\":\"\(widgetToken.prefix(62))\"",
                "widgetPushToken is too short (at least 64 hex characters)"
            ),
            (
                "widgetPushToken too long", "\"widgetPushToken\":\"\(String(repeating: "ab", count: 101))\"",
                "widgetPushToken is too long (at most 200 hex characters)"
            ),
            ("widgetPushToken is a number", "\"widgetPushToken\":12345", "widgetPushToken must be a string"),
            ("widgetPushToken is an array", "\"widgetPushToken\":[\"\(widgetToken)\"]", "widgetPushToken must be a string"),
            (
                "widgetPushToken is pushToken", "\"widgetPushToken\":\"\(seedToken)\"",
                "widgetPushToken must be the extension's own token, not pushToken"
            ),
            (
                "widgetPushToken is pushToken uppercased", "\"widgetPushToken\":\"\(seedToken.uppercased())\"",
                "widgetPushToken must be the extension's own token, not pushToken"
            ),
        ].map { ErrorRow(name: $0.0, body: widgetBody($0.1), status: 400, error: $0.2) }
        + ["\"900\"", "true", "0", "-5", "1.5", "86401", "1e300", "[900]", "{}"].map { json in
            ErrorRow(
                name: "widgetInterval \(json)",
                body: widgetBody("\"widgetPushToken\":\"\(widgetToken)\",\"widgetInterval\":\(json)"), status: 400,
                error: "widgetInterval must be whole seconds from 1 to 86400")
        }
}
