import LiveActivityDomain
import Testing

/// SPEC 6 "Several apps": which apps the settings name, and each app's settings falling back to
/// the default app's.
@Suite struct AppSettingsTests {
    @Test func withoutTheListOnlyTheDefaultAppIsServed() throws {
        #expect(try Settings(values: [:]).apps() == [.defaultApp])
        #expect(try Settings(values: ["LIVEACTIVITY_APPS": " "]).apps() == [.defaultApp])
    }

    @Test func theListNamesFurtherAppsInItsOrder() throws {
        let apps = try Settings(values: ["LIVEACTIVITY_APPS": "other-app, b2"]).apps()
        #expect(apps.map(\.rawValue) == ["default", "other-app", "b2"])
        #expect(apps.map(\.settingSuffix) == ["", "_OTHER_APP", "_B2"])
        #expect(apps[1].settingName("APNS_BUNDLE_ID") == "APNS_BUNDLE_ID_OTHER_APP")
    }

    @Test(arguments: [
        "Other", "other_app", "a,,b", "a,", "-a", "default", "a,a", "é", "a b", String(repeating: "a", count: 33),
        "a;rm -rf /",
    ])
    func aBadListIsOneLineNamingIt(_ list: String) {
        #expect(throws: ConfigurationError.self) { try Settings(values: ["LIVEACTIVITY_APPS": list]).apps() }
        do {
            _ = try Settings(values: ["LIVEACTIVITY_APPS": list]).apps()
        } catch {
            #expect(error.description.hasPrefix("configuration: LIVEACTIVITY_APPS is malformed"))
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func anAppsOwnSettingWinsAndTheDefaultsFillTheRest() throws {
        let settings = Settings(values: [
            "LIVEACTIVITY_APPS": "other", "APNS_BUNDLE_ID": "com.example.one", "APNS_TEAM_ID": "TEAM000001",
            "APNS_KEY_ID": "KEY0000001", "APNS_KEY_PATH": "/keys/one.p8", "APNS_BUNDLE_ID_OTHER": "com.example.two",
            "APNS_ENVIRONMENTS": "production", "LIVEACTIVITY_DB": "/var/db.sqlite",
        ])
        let other = settings.forApp(try #require(AppName("other")))
        #expect(other.text("APNS_BUNDLE_ID") == "com.example.two")
        #expect(other.text("APNS_TEAM_ID") == "TEAM000001" && other.text("APNS_KEY_ID") == "KEY0000001")
        #expect(other.text("APNS_KEY_PATH") == "/keys/one.p8")
        #expect(try other.environments("APNS_ENVIRONMENTS") == [.production])
        #expect(other.text("LIVEACTIVITY_DB") == "/var/db.sqlite", "a setting of the deployment is every app's")
        #expect(settings.forApp(.defaultApp).text("APNS_BUNDLE_ID") == "com.example.one")
    }

    /// An app that names its own key as text does not also take the default app's key file (which
    /// the sweep would read first): the two names are one setting.
    @Test func anAppsOwnKeyReplacesBothOfTheDefaultsKeyNames() throws {
        let settings = Settings(values: [
            "APNS_KEY_PATH": "/keys/one.p8", "APNS_KEY_OTHER": "-----BEGIN PRIVATE KEY-----\nX\n-----END PRIVATE KEY-----\n",
        ])
        let other = settings.forApp(try #require(AppName("other")))
        #expect(other.verbatim("APNS_KEY")?.hasPrefix("-----BEGIN") == true)
        #expect(other.text("APNS_KEY_PATH") == nil)
        let second = Settings(values: ["APNS_KEY": "inline", "APNS_KEY_PATH_OTHER": "/keys/two.p8"])
            .forApp(try #require(AppName("other")))
        #expect(second.text("APNS_KEY") == nil && second.text("APNS_KEY_PATH") == "/keys/two.p8")
    }

    @Test func eachAppHasABundleIDOfItsOwn() throws {
        let apps = [AppName.defaultApp, try #require(AppName("other")), try #require(AppName("third"))]
        let settings = Settings(values: [
            "APNS_BUNDLE_ID": "com.example.one", "APNS_BUNDLE_ID_OTHER": "com.example.two",
            "APNS_BUNDLE_ID_THIRD": "com.example.three",
        ])
        #expect(try settings.bundleIDs(of: apps)[apps[2]] == "com.example.three")

        var missing = settings.values
        missing["APNS_BUNDLE_ID_THIRD"] = nil
        #expect(throws: ConfigurationError.missing(name: "APNS_BUNDLE_ID_THIRD")) {
            try Settings(values: missing).bundleIDs(of: apps)
        }
        var same = settings.values
        same["APNS_BUNDLE_ID_THIRD"] = "com.example.one"
        #expect(
            throws: ConfigurationError.malformed(
                name: "APNS_BUNDLE_ID_THIRD", expected: "a bundle id of its own, not app default's")
        ) { try Settings(values: same).bundleIDs(of: apps) }
        #expect(throws: ConfigurationError.missing(name: "APNS_BUNDLE_ID")) {
            try Settings(values: [:]).bundleIDs(of: [.defaultApp])
        }
    }

    @Test func theDefaultAppSortsFirst() throws {
        let names = ["zeta", "alpha"].compactMap { AppName($0) } + [.defaultApp]
        #expect(names.sorted().map(\.rawValue) == ["default", "alpha", "zeta"])
    }
}
