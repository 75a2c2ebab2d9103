import Foundation

/// An APNs token as the backend stores it: lowercase hex digits.
///
/// Make it from the `Data` that `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`
/// hands the app (the *device* token, which background pushes go to), or from the
/// `WidgetPushInfo.token` of the widget extension (`widgetPushToken`). Not from ActivityKit's
/// `Activity.pushToken`: that token is for `liveactivity` pushes, and APNs refuses a background
/// push to it (DeviceTokenNotForTopic), after which the backend deletes the registration.
///
/// A token is a credential for pushing to one device, so no text this type makes shows it whole:
/// `description`, `debugDescription` and `dump` show its first 8 hex digits. The whole token is
/// ``hex``, for the request body and for keeping it (it is also `Codable` as that text).
public struct DeviceToken: Sendable, Hashable, Codable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The whole token in lowercase hex: send it, store it, never log it.
    public let hex: String

    /// The token APNs gave the app, as bytes (`didRegisterForRemoteNotificationsWithDeviceToken`,
    /// `WidgetPushInfo.token`). Apple documents no fixed length, so none is assumed here.
    public init(_ bytes: Data) {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        hex = String(decoding: text, as: UTF8.self)
    }

    /// A token the app kept as hex text; nil unless it is hex digits only, of even length and
    /// not empty. Upper case is accepted and stored lowercase. Its length is the backend's to
    /// judge (SPEC 3: 64 to 200 digits), which answers a 400 with its reason.
    public init?(hex text: String) {
        guard !text.isEmpty, text.utf8.count % 2 == 0, text.utf8.allSatisfy(Self.isHexDigit) else { return nil }
        hex = text.lowercased()
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return (byte >= 0x30 && byte <= 0x39) || (lower >= 0x61 && lower <= 0x66)
    }

    /// The first 8 hex digits, which is all a log line may show of a token (SPEC 1).
    public var redacted: String { String(hex.prefix(8)) + "…" }

    public var description: String { "DeviceToken(\(redacted))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["hex": redacted], displayStyle: .struct) }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let token = DeviceToken(hex: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a hex token"))
        }
        self = token
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}
