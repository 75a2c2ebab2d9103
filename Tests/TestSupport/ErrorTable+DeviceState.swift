/// The error table's rows of issue 49: the device state a registration or an ack may carry
/// (SPEC 3, "Device state"). Each names its field, and changes nothing: not the state, not the
/// registration, not the ack's match (a field valid beside it is not written either).
extension ErrorRow {
    private static let activitiesAtRegistration = "activities must be a whole number from 1 to 64"
    private static let activitiesOnAck = "activities must be a whole number from 0 to 64"
    private static let refreshError = "backgroundRefresh must be one of available, denied, restricted"

    /// A registration of the seed token as debug (a wrong acceptance would change its row) with
    /// `fields` as raw JSON members.
    static func stateBody(_ fields: String) -> String {
        "{\"pushToken\":\"\(seedToken)\",\"activityType\":\"debug\",\(fields)}"
    }

    /// An ack of the seed token with `fields` as raw JSON members.
    static func ackStateBody(_ fields: String) -> String { "{\"pushToken\":\"\(seedToken)\",\(fields)}" }

    static let deviceState: [ErrorRow] =
        ["0", "65", "-1", "1.5", "\"2\"", "true", "[1]", "1e300"].map { json in
            ErrorRow(
                name: "registration with activities \(json)", body: stateBody("\"activities\":\(json)"), status: 400,
                error: activitiesAtRegistration)
        }
        + ["65", "-1", "0.5", "\"0\"", "false"].map { json in
            ErrorRow(
                name: "ack with activities \(json)", path: "/wakeup/ack", body: ackStateBody("\"activities\":\(json)"),
                status: 400, error: activitiesOnAck)
        }
        + ["\"off\"", "\"Available\"", "1", "true"].map { json in
            ErrorRow(
                name: "registration with backgroundRefresh \(json)", body: stateBody("\"backgroundRefresh\":\(json)"),
                status: 400, error: refreshError)
        }
        + [
            ErrorRow(
                name: "ack with backgroundRefresh \"on\"", path: "/wakeup/ack",
                body: ackStateBody("\"activities\":2,\"backgroundRefresh\":\"on\""), status: 400, error: refreshError),
            ErrorRow(
                name: "registration with lowPower \"yes\"", body: stateBody("\"activities\":1,\"lowPower\":\"yes\""),
                status: 400, error: "lowPower must be true or false"),
            ErrorRow(
                name: "ack with lowPower 1", path: "/wakeup/ack", body: ackStateBody("\"activities\":0,\"lowPower\":1"),
                status: 400, error: "lowPower must be true or false"),
            ErrorRow(
                name: "ack with changed \"no\"", path: "/wakeup/ack", body: ackStateBody("\"lowPower\":true,\"changed\":\"no\""),
                status: 400, error: "changed must be true or false"),
            ErrorRow(
                name: "ack with changed 0", path: "/wakeup/ack", body: ackStateBody("\"changed\":0"), status: 400,
                error: "changed must be true or false"),
        ]
}
