import APNsHTTP2
import APNsJWT
import Foundation
import LiveActivityDomain
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
}
