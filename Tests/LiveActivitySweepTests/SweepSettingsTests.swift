import APNsHTTP2
import APNsJWT
import Foundation
import LiveActivityDomain
import LiveActivityStore
import LiveActivitySweep
import TestSupport
import Testing

/// The sweep's own settings (SPEC 6): how it reaches APNs, and the credentials it cannot run without.
@Suite struct SweepSettingsTests {
    let folder = TemporaryDirectory("sweep-settings")

    @Test func clientOptionsAreBuiltFromTheSettings() throws {
        let settings = try APNsClientSettings(
            settings: Settings(values: [
                "APNS_HOST": "https://127.0.0.1:9443/", "APNS_CA_FILE": "/tmp/ca.pem", "LIVEACTIVITY_APNS_CONCURRENCY": "50",
                "LIVEACTIVITY_APNS_TIMEOUT": "5",
            ]))
        let options = settings.options(for: .production)
        #expect(options.baseURL == "https://api.push.apple.com", "pushes name Apple's host")
        #expect(options.connectTo == "127.0.0.1:9443", "and connect to APNS_HOST")
        #expect(settings.options(for: .sandbox).baseURL == "https://api.sandbox.push.apple.com")
        #expect(options.caFile == "/tmp/ca.pem")
        #expect(options.maxInFlight == 50)
        #expect(options.requestTimeout == 5 && options.connectTimeout == 5)
    }

    @Test func defaultsGoToApplesHostsWithAThirtySecondTimeout() throws {
        let settings = try APNsClientSettings(settings: Settings(values: [:]))
        #expect(settings == APNsClientSettings())
        #expect(settings.options(for: .sandbox).baseURL == "https://api.sandbox.push.apple.com")
        let options = settings.options(for: .production)
        #expect(options.baseURL == "https://api.push.apple.com" && options.connectTo == nil)
        #expect(options.connectTimeout == 10 && options.requestTimeout == 30)
        #expect(options.maxInFlight == APNsClientSettings.maxConcurrency && options.maxConnections == 4)
    }

    @Test(arguments: [
        ("https://standin.example", "standin.example:443"), ("https://[::1]:8443/", "[::1]:8443"),
        ("https://127.0.0.1:8443", "127.0.0.1:8443"),
    ])
    func apnsHostIsAnAddressToConnectTo(url: String, address: String) throws {
        #expect(try APNsClientSettings(settings: Settings(values: ["APNS_HOST": url])).connectTo == address)
    }

    @Test(arguments: [
        ("APNS_HOST", "http://insecure.example"), ("APNS_HOST", "https://host:99999"), ("APNS_HOST", "https://h/path"),
        ("APNS_HOST", "https://user@host"), ("APNS_HOST", "https://[::1"), ("LIVEACTIVITY_APNS_CONCURRENCY", "0"),
        ("LIVEACTIVITY_APNS_CONCURRENCY", "1e300"), ("LIVEACTIVITY_APNS_CONCURRENCY", "2001"),
        ("LIVEACTIVITY_APNS_TIMEOUT", "-5"),
    ])
    func malformedClientSettingsAreNamed(name: String, value: String) {
        #expect(throws: ConfigurationError.self) { try APNsClientSettings(settings: Settings(values: [name: value])) }
        do {
            _ = try APNsClientSettings(settings: Settings(values: [name: value]))
        } catch {
            #expect(error.description.hasPrefix("configuration: \(name) is malformed"))
        }
    }

    @Test func theTimeBudgetIsFiftySecondsAndBoundedToTheMinute() throws {
        #expect(try SweepBudget(settings: Settings(values: [:])).seconds == 50)
        #expect(try SweepBudget(settings: Settings(values: ["LIVEACTIVITY_SWEEP_BUDGET": "20"])).seconds == 20)
        #expect(SweepBudget.drainSeconds + 55 <= 60)
        for bad in ["0", "56", "-1", "1e300", "nan", "soon"] {
            #expect(throws: ConfigurationError.self) {
                try SweepBudget(settings: Settings(values: ["LIVEACTIVITY_SWEEP_BUDGET": bad]))
            }
        }
    }

    func credentials(_ values: [String: String]) throws(ConfigurationError) -> SweepCredentials {
        var all = ["APNS_KEY_ID": "KEY1234567", "APNS_TEAM_ID": "TEAM123456", "APNS_BUNDLE_ID": "com.example.app"]
        all.merge(values) { _, new in new }
        return try SweepCredentials(settings: Settings(values: all.filter { !$0.value.isEmpty }))
    }

    @Test func theKeyIsReadFromItsFileOrGivenAsPEM() throws {
        let key = try TestKey(in: folder)
        let fromFile = try credentials(["APNS_KEY_PATH": key.privateKeyPath])
        let fromText = try credentials(["APNS_KEY": key.privateKeyPEM])
        #expect(fromFile.keyPEM == key.privateKeyPEM && fromText.keyPEM == key.privateKeyPEM)
        #expect(fromFile.tokenCacheKey == fromText.tokenCacheKey)
        let token = try fromFile.issueToken(at: 1_700_000_000)
        #expect(token.issuedAt == 1_700_000_000 && token.jwt.split(separator: ".").count == 3)
    }

    @Test func eachMissingOrBadCredentialIsOneLineNamingIt() throws {
        let key = try TestKey(in: folder)
        #expect(throws: ConfigurationError.missing(name: "APNS_TEAM_ID")) {
            try credentials(["APNS_TEAM_ID": "", "APNS_KEY_PATH": key.privateKeyPath])
        }
        #expect(throws: ConfigurationError.missing(name: "APNS_KEY_PATH or APNS_KEY")) { try credentials([:]) }
        let missing = folder.file("none.p8")
        #expect(throws: ConfigurationError.unreadableKey(path: missing, reason: "no such file")) {
            try credentials(["APNS_KEY_PATH": missing])
        }
        let binary = try folder.write("binary.p8", "")
        try Data([0xff, 0xfe, 0x00]).write(to: URL(fileURLWithPath: binary))
        #expect(throws: ConfigurationError.unreadableKey(path: binary, reason: "not UTF-8 PEM text")) {
            try credentials(["APNS_KEY_PATH": binary])
        }
        let bad = #expect(throws: ConfigurationError.self) { try credentials(["APNS_KEY": "not a key"]) }
        #expect(
            bad?.description.hasPrefix("configuration: APNS_KEY_PATH/APNS_KEY: the APNs key is not a PEM private key") == true)
    }

    /// SPEC 6 "Several apps": each app's credentials from its own settings, the default app's where
    /// it has none; the apps of one key share its identity, its pool and its one token cache.
    @Test func eachAppSignsAsItsTeamAndKeyAndAKeyIsSharedByItsApps() throws {
        let first = try TestKey(in: folder, name: "First")
        let second = try TestKey(in: folder, name: "Second")
        let settings = Settings(values: [
            "APNS_KEY_ID": "KEY1234567", "APNS_TEAM_ID": "TEAM123456", "APNS_BUNDLE_ID": "com.example.app",
            "APNS_KEY_PATH": first.privateKeyPath, "LIVEACTIVITY_APPS": "two,three",
            "APNS_KEY_ID_TWO": "KEY2222222", "APNS_TEAM_ID_TWO": "TEAM222222", "APNS_BUNDLE_ID_TWO": "org.two.app",
            "APNS_KEY_PATH_TWO": second.privateKeyPath, "APNS_BUNDLE_ID_THREE": "com.example.three",
        ])
        let credentials = try SweepCredentials.ofEveryApp(settings)
        let two = try #require(AppName("two"))
        let three = try #require(AppName("three"))
        let one = SigningIdentity(teamID: "TEAM123456", keyID: "KEY1234567")
        #expect(credentials[.defaultApp]?.route == AppRoute(bundleID: "com.example.app", identity: one))
        #expect(
            credentials[two]?.route
                == AppRoute(bundleID: "org.two.app", identity: SigningIdentity(teamID: "TEAM222222", keyID: "KEY2222222")))
        #expect(credentials[three]?.route == AppRoute(bundleID: "com.example.three", identity: one))
        #expect(credentials[three]?.tokenCacheKey == credentials[.defaultApp]?.tokenCacheKey)
        #expect(credentials[two]?.tokenCacheKey != credentials[.defaultApp]?.tokenCacheKey)

        let apps = SweepApps(credentials, store: KeptTokens())
        #expect(apps.identities == [one, SigningIdentity(teamID: "TEAM222222", keyID: "KEY2222222")])
        #expect(apps.tokens(for: one) === apps.tokens(for: one) && apps.routes[.defaultApp] == credentials[.defaultApp]?.route)

        // Another key under the default app's team and key id: one of the two is wrong.
        var clash = settings.values
        clash["APNS_KEY_PATH_THREE"] = second.privateKeyPath
        let refused = #expect(throws: ConfigurationError.self) {
            try SweepCredentials.ofEveryApp(Settings(values: clash))
        }
        #expect(
            refused?.description.hasPrefix("configuration: APNS_KEY_ID_THREE is malformed") == true,
            "\(String(describing: refused))")
        // A further app without a bundle id of its own is refused, naming its setting.
        var missing = settings.values
        missing["APNS_BUNDLE_ID_THREE"] = nil
        #expect(throws: ConfigurationError.missing(name: "APNS_BUNDLE_ID_THREE")) {
            try SweepCredentials.ofEveryApp(Settings(values: missing))
        }
    }
}

/// Tokens kept in memory, for a cache that is made and not used.
private final class KeptTokens: ProviderTokenStore {
    var tokens: [String: ProviderToken] = [:]
    func load(cacheKey: String) throws -> ProviderToken? { tokens[cacheKey] }
    func renew(cacheKey: String, _ renew: (ProviderToken?) throws -> ProviderToken) throws -> ProviderToken {
        let token = try renew(tokens[cacheKey])
        tokens[cacheKey] = token
        return token
    }
}
