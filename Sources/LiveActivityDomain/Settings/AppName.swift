/// One app a deployment serves (SPEC 6 "Several apps"): the default app, which the plain settings
/// describe, or a further one named in `LIVEACTIVITY_APPS`, whose settings carry the suffix
/// `_<NAME>` (upper case, dashes as underscores: `other-app` reads `APNS_BUNDLE_ID_OTHER_APP`).
public struct AppName: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The name as the operator wrote it (`default` for the default app).
    public let rawValue: String

    /// The app the plain settings describe.
    public static let defaultApp = AppName(checked: "default")

    /// The longest name taken: it becomes part of setting names, labels and log lines.
    public static let maximumLength = 32

    private init(checked rawValue: String) { self.rawValue = rawValue }

    /// A name read back without checks, where a page of rows must move on whatever it holds.
    public init(trusted rawValue: String) { self.rawValue = rawValue }

    /// A further app's name: 1 to 32 of `a-z`, `0-9` and `-`, not starting with a dash; nil
    /// otherwise. `default` is the default app's.
    public init?(_ text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= Self.maximumLength, bytes[0] != UInt8(ascii: "-"),
            bytes.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-") })
        else { return nil }
        self.init(checked: String(text))
    }

    public var isDefault: Bool { self == .defaultApp }

    /// Whether `name`, as stored or shown, is the default app's.
    public static func isDefault(named name: String) -> Bool { name == defaultApp.rawValue }

    /// The name then `separator` for an app other than the default one, nothing for the default
    /// app: what a line or figure puts before what is an app's, so that a deployment of one app
    /// reads as it always did (SPEC 6).
    public func prefix(_ separator: String) -> String { isDefault ? "" : rawValue + separator }

    /// What this app's settings end with: nothing for the default app, else `_OTHER_APP`.
    public var settingSuffix: String {
        guard !isDefault else { return "" }
        return "_" + String(rawValue.map { $0 == "-" ? "_" : $0 }).uppercased()
    }

    /// `name` as this app reads it: `APNS_BUNDLE_ID_OTHER_APP` for `APNS_BUNDLE_ID`.
    public func settingName(_ name: String) -> String { name + settingSuffix }

    public var description: String { rawValue }

    /// The default app first, then by name.
    public static func < (left: AppName, right: AppName) -> Bool {
        if left.isDefault != right.isDefault { return left.isDefault }
        return left.rawValue < right.rawValue
    }
}
