import LiveActivityDomain

/// The body of `POST /wakeup/diagnostics` (SPEC 3): the device token, checked as everywhere, and
/// the widget extension's token when the app has one (`widgetPushToken`, checked as at
/// registration), so the answer can say the registration lacks its widgets target. Every other
/// field is ignored, as for an ack.
extension RegistrationBody {
    public static func diagnostics(_ bytes: [UInt8]) throws(APIError) -> (token: PushToken, widgetToken: PushToken?) {
        let object = try jsonObject(bytes)
        let token = try unregistration(object)
        let field = PushKind.widgets.tokenField ?? "widgetPushToken"
        let widget = try Self.token(in: object, field: field, required: false)
        if widget == token { throw .badRequest("\(field) must be the extension's own token, not pushToken") }
        return (token, widget)
    }
}
