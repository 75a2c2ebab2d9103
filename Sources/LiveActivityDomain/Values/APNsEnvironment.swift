/// Which APNs host a token belongs to. Debug builds get sandbox tokens, TestFlight and App Store
/// builds production ones, and a token pushed to the other host answers BadDeviceToken.
public enum APNsEnvironment: String, CaseIterable, Sendable, Hashable {
    case production
    case sandbox

    /// Parses a configured or requested name; `development` is Apple's other name for sandbox.
    public init?(name: String) {
        switch name.lowercased() {
        case "production": self = .production
        case "sandbox", "development": self = .sandbox
        default: return nil
        }
    }

    /// Apple's host for this environment.
    public var appleBaseURL: String {
        switch self {
        case .production: "https://api.push.apple.com"
        case .sandbox: "https://api.sandbox.push.apple.com"
        }
    }

    public static var supportedNames: [String] { allCases.map(\.rawValue) }
}
