import LiveActivityDomain
import LiveActivityStore

/// The device state a registration or an ack may carry (SPEC 3, "Device state"), validated: each
/// field absent or null means "not said", a field of the wrong type or out of range is a 400
/// naming it, and nothing is written for a request that fails (the whole body is parsed before
/// anything is committed).
extension RegistrationBody {
    /// `activities`, `backgroundRefresh` and `lowPower` of `object`. A registration is made while
    /// an activity runs, so there `activities` is at least 1 (0 is an ack's word: none left).
    static func deviceState(in object: JSONReader.Members, registering: Bool) throws(APIError) -> DeviceState {
        var state = DeviceState()
        if let raw = object["activities"], raw != .null {
            let lowest = registering ? 1 : DeviceState.activityRange.lowerBound
            let highest = DeviceState.activityRange.upperBound
            guard case .number(let count) = raw, count == count.rounded(.towardZero), count >= Double(lowest),
                count <= Double(highest)
            else { throw .badRequest("activities must be a whole number from \(lowest) to \(highest)") }
            state.activities = Int(count)
        }
        if let raw = object["backgroundRefresh"], raw != .null {
            guard case .string(let name) = raw, let refresh = BackgroundRefresh(rawValue: name) else {
                throw .badRequest(
                    "backgroundRefresh must be one of " + BackgroundRefresh.allCases.map(\.rawValue).joined(separator: ", "))
            }
            state.backgroundRefresh = refresh
        }
        state.lowPower = try flag("lowPower", in: object)
        return state
    }

    /// A boolean field, nil when absent or null.
    static func flag(_ field: String, in object: JSONReader.Members) throws(APIError) -> Bool? {
        guard let raw = object[field], raw != .null else { return nil }
        guard case .bool(let value) = raw else { throw .badRequest("\(field) must be true or false") }
        return value
    }

    /// The token of an ack and what it reported (SPEC 3): the device state and `changed`. Every
    /// other field is ignored, as for an unregistration.
    public static func acknowledgement(_ bytes: [UInt8]) throws(APIError) -> (PushToken, AckReport) {
        let object = try jsonObject(bytes)
        let token = try unregistration(object)
        let device = try deviceState(in: object, registering: false)
        return (token, AckReport(device: device, changed: try flag("changed", in: object)))
    }
}
