/// Which APNs environment the backend pushes a token to. A token belongs to one: a
/// development-signed build gets sandbox tokens, a TestFlight or App Store build production
/// ones, and a token sent to the other host is refused (BadDeviceToken).
public enum WakeEnvironment: Sendable, Hashable, CustomStringConvertible {
    /// Decided by how this code was compiled: `sandbox` when `DEBUG` is defined (Xcode's Debug
    /// configuration, which SwiftPM also builds this package in), `production` otherwise.
    ///
    /// This is a guess from the build configuration, not from the signature: what decides the
    /// token's environment is the `aps-environment` entitlement of the provisioning profile. A
    /// Release build run from Xcode with a development profile has sandbox tokens yet says
    /// `production` here; a Debug build signed for distribution the other way round. Such builds
    /// should say ``sandbox`` or ``production`` themselves (or use ``backendChooses`` with a
    /// `/dev` or `/prod` prefix).
    case fromBuild
    /// api.sandbox.push.apple.com: tokens of development-signed builds.
    case sandbox
    /// api.push.apple.com: tokens of TestFlight, App Store and Ad Hoc builds.
    case production
    /// Send no `environment`: the backend's location decides (the shipped nginx config sets
    /// sandbox under `/dev` and production under `/prod`), else the operator's default.
    case backendChooses

    /// The value sent as `environment`, nil for ``backendChooses``.
    public var wireValue: String? {
        switch self {
        case .fromBuild: Self.buildDefault.wireValue
        case .sandbox: "sandbox"
        case .production: "production"
        case .backendChooses: nil
        }
    }

    /// What ``fromBuild`` means in this build.
    public static var buildDefault: WakeEnvironment {
        #if DEBUG
            .sandbox
        #else
            .production
        #endif
    }

    public var description: String { wireValue ?? "chosen by the backend" }
}
