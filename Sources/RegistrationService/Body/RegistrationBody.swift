import LiveActivityDomain
import LiveActivityStore

/// The JSON body of `POST /wakeup`, `/wakeup/unregister`, `/wakeup/ack` and `/wakeup/diagnostics`,
/// validated (SPEC section 3).
public struct RegistrationBody: Equatable, Sendable {
    public var token: PushToken
    public var activityType: ActivityType
    /// Absent: the FastCGI parameter, then the configured default, decide (`EnvironmentChoice`).
    public var environment: APNsEnvironment?
    /// The seconds between wake-ups the app asked for; nil: the type's interval.
    public var interval: Int? = nil
    /// The targets of other kinds the app asked for (`widgetPushToken` with `widgetInterval`).
    public var others: [NewRegistration.Other] = []
    /// What the app reported of the device (SPEC 3, "Device state"); unknown where it said nothing.
    public var device: DeviceState = .unknown

    /// The widget extension's push token (`widgetPushToken`), nil for none.
    public var widgetToken: PushToken? { others.first { $0.kind == .widgets }?.token }
    /// The seconds between widget reloads the app asked for (`widgetInterval`); nil: the setting's.
    public var widgetInterval: Int? { others.first { $0.kind == .widgets }?.requestedInterval }

    /// The 400 for an interval field that is not whole seconds in range.
    static func badInterval(_ field: String) -> APIError {
        .badRequest(
            "\(field) must be whole seconds from \(IntervalPolicy.requestable.lowerBound) to \(IntervalPolicy.requestable.upperBound)"
        )
    }

    /// Parses and validates a registration; every failure is a 400 whose message names the field.
    /// An environment `choice` does not enable (APNS_ENVIRONMENTS) is refused with the enabled
    /// ones as `supported`.
    public static func parse(_ bytes: [UInt8], choice: EnvironmentChoice = EnvironmentChoice()) throws(APIError)
        -> RegistrationBody
    {
        let object = try jsonObject(bytes)
        let token = try token(in: object)

        var type = ActivityType.default
        if let rawType = object["activityType"], rawType != .null {
            guard case .string(let name) = rawType else { throw .badRequest("activityType must be a string") }
            guard let parsed = ActivityType(rawValue: name) else {
                throw .unsupported("Unsupported activityType: \(name.prefix(64))", supported: ActivityType.supportedNames)
            }
            type = parsed
        }

        var environment: APNsEnvironment?
        if let rawEnvironment = object["environment"], rawEnvironment != .null {
            guard case .string(let name) = rawEnvironment else { throw .badRequest("environment must be a string") }
            environment = try choice.named(inBody: name)
        }
        let interval = try interval("interval", in: object)
        // Each other kind's token is validated as the device's (SPEC 3), and must differ from
        // it: the same token for two targets is a client's mistake, not two targets. Its
        // interval counts only beside its token.
        var others: [NewRegistration.Other] = []
        for kind in PushKind.others {
            guard let tokenField = kind.tokenField else { continue }
            let other = try Self.token(in: object, field: tokenField, required: false)
            if let other, other == token {
                throw .badRequest("\(tokenField) must be the extension's own token, not pushToken")
            }
            let asked = try kind.intervalField.flatMap { field throws(APIError) in try self.interval(field, in: object) }
            if let other { others.append(NewRegistration.Other(kind: kind, token: other, requestedInterval: asked)) }
        }
        let device = try deviceState(in: object, registering: true)
        return RegistrationBody(
            token: token, activityType: type, environment: environment, interval: interval, others: others, device: device)
    }

    /// An interval field (`interval`, `widgetInterval`): a JSON number that is a whole count of
    /// seconds in range (`900` or `900.0`); compared as a `Double` before any conversion, so
    /// `1e300` is refused, never trapped on.
    private static func interval(_ field: String, in object: JSONReader.Members) throws(APIError) -> Int? {
        guard let raw = object[field], raw != .null else { return nil }
        guard case .number(let seconds) = raw, seconds == seconds.rounded(.towardZero),
            seconds >= Double(IntervalPolicy.requestable.lowerBound), seconds <= Double(IntervalPolicy.requestable.upperBound)
        else { throw badInterval(field) }
        return Int(seconds)
    }

    /// The token of an unregistration or an ack (SPEC 3): every other field is ignored, whatever
    /// its value, since an app may send the body it registered with.
    public static func unregistration(_ bytes: [UInt8]) throws(APIError) -> PushToken {
        try unregistration(try jsonObject(bytes))
    }

    static func unregistration(_ object: JSONReader.Members) throws(APIError) -> PushToken {
        try token(in: object)
    }

    private static func token(in object: JSONReader.Members) throws(APIError) -> PushToken {
        guard let token = try token(in: object, field: "pushToken", required: true) else {
            throw .badRequest("pushToken is required")
        }
        return token
    }

    /// A token field, checked as SPEC 3 says of `pushToken`; nil when it is absent (or null) and
    /// not `required`. A `widgetPushToken` error names its field.
    static func token(in object: JSONReader.Members, field: String, required: Bool) throws(APIError) -> PushToken? {
        guard let rawToken = object[field], rawToken != .null else {
            if required { throw .badRequest("\(field) is required") }
            return nil
        }
        guard case .string(let tokenText) = rawToken else {
            throw .badRequest("\(field) must be a string")
        }
        do throws(PushTokenError) {
            return try PushToken(validating: tokenText)
        } catch {
            throw .badRequest(error.description(field: field))
        }
    }

    /// The body as a JSON object, or a 400 saying why it is not one.
    static func jsonObject(_ bytes: [UInt8]) throws(APIError) -> JSONReader.Members {
        guard !bytes.isEmpty else { throw .badRequest("Request body must be a JSON object") }
        do {
            return try JSONReader.members(of: bytes)
        } catch {
            switch error {
            case .invalid: throw .badRequest("Request body is not valid JSON")
            case .notAnObject: throw .badRequest("Request body must be a JSON object")
            }
        }
    }
}
