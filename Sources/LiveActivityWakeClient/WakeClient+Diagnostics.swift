import Foundation

extension WakeClient {
    /// What the backend knows of this device's registration, and hints for the person holding
    /// the phone (`POST <prefix>/wakeup/diagnostics`): call it when the user asks why the Live
    /// Activity is stale, not on a timer (the backend answers a few a minute per token, then
    /// ``WakeClientError/rateLimited(retryAfter:attempts:)``).
    ///
    /// - Parameters:
    ///   - deviceToken: the device token the app registered.
    ///   - widgetPushToken: the widget extension's token, when a push widget is installed: the
    ///     hints then say whether the registration lacks its widgets target.
    /// - Throws: ``WakeClientError`` for any answer but a 200.
    public func diagnostics(deviceToken: DeviceToken, widgetPushToken: DeviceToken? = nil) async throws -> WakeDiagnostics {
        let what = "diagnostics \(deviceToken)"
        let data = try await exchange(
            "/wakeup/diagnostics", body: DiagnosticsBody(pushToken: deviceToken.hex, widgetPushToken: widgetPushToken?.hex),
            what: what)
        do {
            let diagnostics = try WakeDiagnostics(json: data)
            log?(
                "\(what): 200, " + (diagnostics.registered ? "registered" : "not registered")
                    + (diagnostics.hints.isEmpty
                        ? "" : ", hints \(diagnostics.hints.map(\.code.rawValue).joined(separator: ","))"))
            return diagnostics
        } catch {
            log?("\(what): \(error)")
            throw error
        }
    }
}
