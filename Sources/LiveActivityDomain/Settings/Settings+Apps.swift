/// Several apps in one deployment (SPEC 6 "Several apps"): which apps, and each app's settings as
/// a view of the whole, so the code that reads one app's settings reads any app's unchanged.
extension Settings {
    /// The settings an app may have of its own, each falling back to the default app's.
    public static let perAppNames = ["APNS_BUNDLE_ID", "APNS_TEAM_ID", "APNS_KEY_ID", "APNS_ENVIRONMENTS", "APNS_ENVIRONMENT"]
    /// The key, as a file or as its text: one setting under two names, so an app that names its
    /// own key in either takes neither of the default app's.
    public static let perAppKeyNames = ["APNS_KEY_PATH", "APNS_KEY"]

    /// The apps served: the default app, then those `LIVEACTIVITY_APPS` names in its order. A name
    /// that is not 1 to 32 of `a-z`, `0-9` and `-`, `default`, an empty item or a name given twice
    /// is malformed.
    public func apps() throws(ConfigurationError) -> [AppName] {
        var apps = [AppName.defaultApp]
        guard let list = text("LIVEACTIVITY_APPS") else { return apps }
        for item in list.split(separator: ",", omittingEmptySubsequences: false) {
            guard let app = AppName(item.trimmingBlanks()), !apps.contains(app) else {
                throw .malformed(
                    name: "LIVEACTIVITY_APPS",
                    expected: "a comma list of distinct app names of a-z, 0-9 and - (up to 32), none of them default")
            }
            apps.append(app)
        }
        return apps
    }

    /// `app`'s settings: its own `_<NAME>` values under the plain names of `names` and
    /// `keyNames`, the default app's where it has none (the key names taken together). The
    /// default app's settings are these unchanged.
    public func forApp(
        _ app: AppName, names: [String] = Settings.perAppNames, keyNames: [String] = Settings.perAppKeyNames
    ) -> Settings {
        guard !app.isDefault else { return self }
        var scoped = values
        for name in names {
            if let own = verbatim(app.settingName(name)) { scoped[name] = own }
        }
        if keyNames.contains(where: { verbatim(app.settingName($0)) != nil }) {
            for name in keyNames { scoped[name] = verbatim(app.settingName(name)) }
        }
        return Settings(values: scoped)
    }

    /// Each app's bundle id, its topic. A further app names its own (`APNS_BUNDLE_ID_<NAME>`):
    /// two apps are never one topic, so one that has none, or one another app has, is refused,
    /// naming the setting.
    public func bundleIDs(of apps: [AppName]) throws(ConfigurationError) -> [AppName: String] {
        var bundleIDs: [AppName: String] = [:]
        for app in apps {
            let name = app.settingName("APNS_BUNDLE_ID")
            let bundleID = try required(name)
            if let other = apps.first(where: { bundleIDs[$0] == bundleID }) {
                throw .malformed(name: name, expected: "a bundle id of its own, not app \(other)'s")
            }
            bundleIDs[app] = bundleID
        }
        return bundleIDs
    }
}
