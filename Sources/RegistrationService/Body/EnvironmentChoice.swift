import LiveActivityDomain

/// Which APNs environment a registration goes to (SPEC 3), both halves of the rule in one place:
/// the body's `environment`, else the parameter an nginx location sets
/// (`LIVEACTIVITY_APNS_ENVIRONMENT`), else the configured default. Either half naming an
/// environment the operator did not enable (`APNS_ENVIRONMENTS`) is the same 400, listing the
/// enabled ones and naming the setting that would enable it (a development build's sandbox token
/// meets it first: the package enables production alone); a parameter that names no environment
/// at all is the operator's mistake.
public struct EnvironmentChoice: Sendable, Equatable {
    public var enabled: [APNsEnvironment]
    public var defaultEnvironment: APNsEnvironment
    /// The setting that enables environments for this app (`APNS_ENVIRONMENTS`, or a further
    /// app's `APNS_ENVIRONMENTS_<NAME>`), named in the 400.
    public var setting: String

    /// Why a choice was refused.
    public enum Refusal: Error, Equatable {
        /// The body, or a location, named an environment that is unknown (body) or not enabled: a 400.
        case unsupported(APIError)
        /// The location's parameter is neither production nor sandbox (its value as sent).
        case badParameter(String)
    }

    public init(
        enabled: [APNsEnvironment] = APNsEnvironment.allCases, defaultEnvironment: APNsEnvironment = .production,
        setting: String = "APNS_ENVIRONMENTS"
    ) {
        self.enabled = enabled
        self.defaultEnvironment = defaultEnvironment
        self.setting = setting
    }

    public init(_ configuration: Configuration) {
        self.init(enabled: configuration.enabledEnvironments, defaultEnvironment: configuration.defaultEnvironment)
    }

    /// One app's choice (SPEC 6: each app its own environments, or the default app's), whose
    /// refusal names that app's setting.
    public init(_ app: AppEnvironments, of name: AppName = .defaultApp) {
        self.init(
            enabled: app.enabled, defaultEnvironment: app.defaultEnvironment, setting: name.settingName("APNS_ENVIRONMENTS"))
    }

    /// The body's `environment`, one of the enabled ones (`development` is sandbox), else the 400.
    public func named(inBody name: String) throws(APIError) -> APNsEnvironment {
        guard let environment = APNsEnvironment(name: name), enabled.contains(environment) else {
            throw unsupported(name)
        }
        return environment
    }

    /// The environment of a registration whose body named `body` (nil: none) and whose location
    /// set `parameter` (nil or empty: none).
    public func choose(body: APNsEnvironment?, parameter: String?) throws(Refusal) -> APNsEnvironment {
        if let body { return body }
        guard let parameter, !parameter.isEmpty else { return defaultEnvironment }
        guard let fromLocation = APNsEnvironment(name: parameter) else { throw .badParameter(parameter) }
        // An nginx location of an environment the operator turned off.
        guard enabled.contains(fromLocation) else { throw .unsupported(unsupported(parameter)) }
        return fromLocation
    }

    /// The 400 for an environment that is unknown or not enabled, listing the enabled ones; one
    /// that exists but is not enabled names the setting that enables it.
    private func unsupported(_ name: String) -> APIError {
        let shown = "Unsupported environment: \(name.prefix(64))"
        guard APNsEnvironment(name: name) != nil else { return .unsupported(shown, supported: enabled.map(\.rawValue)) }
        return .unsupported(
            shown + " (the backend's \(setting) does not enable it)", supported: enabled.map(\.rawValue))
    }
}
