import TestSupport
import Testing

@testable import LiveActivityDomain

@Suite struct ConfigurationTests {
    @Test func defaultsMatchTheSpecification() throws {
        let configuration = try Configuration(environment: [:])
        #expect(configuration.databasePath == "./var/liveactivity.sqlite")
        #expect(configuration.defaultEnvironment == .production)
        #expect(configuration.maxRegistrations == 100_000)
        #expect(configuration.expiryHours == 8)
        #expect(configuration.intervalPolicy.seconds(.charging) == 300)
        #expect(configuration.intervalPolicy.seconds(.debug) == 60)
        #expect(configuration.intervalPolicy.floorSeconds(.widgets, .charging) == 1800, "LIVEACTIVITY_INTERVAL_WIDGETS")
        #expect(configuration.intervalPolicy.floorSeconds(.wake, .debug) == 60, "a wake's is its type's")
        #expect(configuration.sqliteSynchronous == "NORMAL")
    }

    @Test func environmentVariablesAreRead() throws {
        let settings = try Settings(environment: [
            "LIVEACTIVITY_DB": "/srv/db.sqlite", "APNS_KEY_ID": "ABC123DEFG", "APNS_TEAM_ID": "TEAM123456",
            "APNS_BUNDLE_ID": "com.example.app", "APNS_ENVIRONMENT": "development",
            "APNS_HOST": "https://127.0.0.1:8443/", "LIVEACTIVITY_MAX_REGISTRATIONS": "5",
            "LIVEACTIVITY_EXPIRY_HOURS": "0.5", "LIVEACTIVITY_INTERVAL_CHARGING": "120",
            "LIVEACTIVITY_INTERVAL_DEBUG": "30", "LIVEACTIVITY_INTERVAL_WIDGETS": "3600",
        ])
        var configuration = try Configuration(settings: settings)
        #expect(configuration.databasePath == "/srv/db.sqlite")
        #expect(configuration.defaultEnvironment == .sandbox)
        #expect(configuration.maxRegistrations == 5)
        #expect(configuration.expiryMilliseconds == 1_800_000)
        #expect(configuration.intervalPolicy.milliseconds(.charging) == 300_000, "the intervals are the sweep's to read")
        #expect(configuration.intervalPolicy.floorSeconds(.widgets, .charging) == 1800, "not read yet: the default")
        try configuration.readPushIntervals(settings)
        #expect(configuration.intervalPolicy.milliseconds(.charging) == 120_000)
        #expect(configuration.intervalPolicy.milliseconds(.debug) == 30_000)
        #expect(configuration.intervalPolicy.floorSeconds(.widgets, .debug) == 3600)
        #expect(configuration.intervalPolicy.effectiveSeconds(.widgets, .debug, requested: 900) == 3600)
    }

    @Test(arguments: [
        ("LIVEACTIVITY_INTERVAL_CHARGING", "5m"), ("LIVEACTIVITY_INTERVAL_DEBUG", "0"), ("LIVEACTIVITY_INTERVAL_WIDGETS", "30m"),
        ("LIVEACTIVITY_INTERVAL_WIDGETS", "86401"),
    ])
    func malformedIntervalsAreNamedWhereTheyAreRead(name: String, value: String) throws {
        let settings = try Settings(environment: [name: value])
        var configuration = try Configuration(settings: settings)
        #expect {
            try configuration.readPushIntervals(settings)
        } throws: { error in
            guard let error = error as? ConfigurationError, case .malformed(let named, _) = error else { return false }
            return named == name && error.description.contains(name) && !error.description.contains("\n")
        }
    }

    @Test func apnsEnvironmentsEnablesSomeAndMustHoldTheDefault() throws {
        #expect(try Configuration(environment: [:]).enabledEnvironments == [.production, .sandbox])
        #expect(try Configuration(environment: ["APNS_ENVIRONMENTS": "production"]).enabledEnvironments == [.production])
        #expect(
            try Configuration(environment: ["APNS_ENVIRONMENTS": " development , production", "APNS_ENVIRONMENT": "sandbox"])
                .enabledEnvironments == [.production, .sandbox])
        for (environments, name) in [("production", "sandbox"), ("sandbox", "production")] {
            #expect(throws: ConfigurationError.self) {
                try Configuration(environment: ["APNS_ENVIRONMENTS": environments, "APNS_ENVIRONMENT": name])
            }
        }
        do {
            _ = try Configuration(environment: ["APNS_ENVIRONMENTS": "sandbox"])
            Issue.record("the default production is not enabled")
        } catch {
            #expect(
                error.description.hasPrefix(
                    "configuration: APNS_ENVIRONMENT is malformed (expected an environment APNS_ENVIRONMENTS enables (sandbox))"))
        }
        for bad in ["prod", "production,", ","] {
            #expect(
                throws: ConfigurationError.malformed(
                    name: "APNS_ENVIRONMENTS", expected: "a comma list of production and sandbox")
            ) {
                try Configuration(environment: ["APNS_ENVIRONMENTS": bad])
            }
        }
    }

    @Test func theFileIsReadAndTheEnvironmentWins() throws {
        let folder = TemporaryDirectory("config")
        let path = try folder.write(
            "liveactivity.env",
            """
            # comment line
            LIVEACTIVITY_DB=/from/file.sqlite

            export APNS_TEAM_ID="TEAMFROMFILE"
            APNS_KEY_ID = KEYFROMFILE
            APNS_KEY=-----BEGIN PRIVATE KEY-----\\nabc\\n-----END PRIVATE KEY-----
            """)
        let settings = try Settings(environment: ["LIVEACTIVITY_CONFIG": path, "APNS_KEY_ID": "FROMENV"])
        #expect(try Configuration(settings: settings).databasePath == "/from/file.sqlite")
        #expect(settings.text("APNS_TEAM_ID") == "TEAMFROMFILE")
        #expect(settings.text("APNS_KEY_ID") == "FROMENV")
        #expect(settings.verbatim("APNS_KEY") == "-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----")
    }

    @Test(arguments: [
        ("APNS_ENVIRONMENT", "staging"),
        ("LIVEACTIVITY_MAX_REGISTRATIONS", "many"),
        ("LIVEACTIVITY_MAX_REGISTRATIONS", "0"),
        ("LIVEACTIVITY_EXPIRY_HOURS", "-1"),
        ("LIVEACTIVITY_TEST_CLOCK_OFFSET", "1e300"),
        ("LIVEACTIVITY_TEST_CLOCK_OFFSET", "nan"),
        ("LIVEACTIVITY_SQLITE_SYNCHRONOUS", "SOMETIMES"),
        ("LIVEACTIVITY_BUSY_TIMEOUT_MS", "-5"),
        ("LIVEACTIVITY_SQLITE_MAX_PAGES", "8"),
        ("LIVEACTIVITY_SQLITE_MAX_PAGES", "lots"),
    ])
    func malformedSettingsAreNamed(name: String, value: String) {
        #expect {
            try Configuration(environment: [name: value])
        } throws: { error in
            guard let error = error as? ConfigurationError, case .malformed(let named, _) = error else { return false }
            return named == name && error.description.contains(name) && !error.description.contains("\n")
        }
    }

    @Test func theAPNsSettingsAreLeftToThePrograms() {
        // The responder's configuration holds no APNs setting, so a bad one is not its concern.
        let configuration = try? Configuration(environment: ["APNS_HOST": "http://insecure.example", "APNS_KEY_ID": ""])
        #expect(configuration != nil)
    }

    @Test func aMissingFileIsOneClearLine() {
        #expect(throws: ConfigurationError.self) {
            try Configuration(environment: ["LIVEACTIVITY_CONFIG": "/nonexistent/liveactivity.env"])
        }
        do {
            _ = try Configuration(environment: ["LIVEACTIVITY_CONFIG": "/nonexistent/liveactivity.env"])
        } catch {
            #expect(error.description.hasPrefix("configuration: cannot read LIVEACTIVITY_CONFIG file /nonexistent/"))
        }
    }

    @Test func aLineWithoutEqualsIsReportedWithItsNumber() throws {
        let folder = TemporaryDirectory("config")
        let path = try folder.write("bad.env", "LIVEACTIVITY_DB=/x\nthis is not a setting\n")
        #expect(throws: ConfigurationError.badLine(path: path, line: 2)) {
            try Configuration(environment: ["LIVEACTIVITY_CONFIG": path])
        }
    }
}

/// One parser for a comma list of environments, whichever setting it is.
@Suite struct EnvironmentListTests {
    @Test func everyListSettingReadsTheSameWay() throws {
        for name in ["APNS_ENVIRONMENTS", "STANDIN_KEY_ENVIRONMENTS"] {
            #expect(try Settings(values: [:]).environments(name) == nil)
            #expect(
                try Settings(values: [name: " sandbox, development ,production"]).environments(name) == [.production, .sandbox])
            for bad in ["production,,sandbox", "production,", "mars"] {
                #expect(throws: ConfigurationError.malformed(name: name, expected: "a comma list of production and sandbox")) {
                    try Settings(values: [name: bad]).environments(name)
                }
            }
        }
    }
}
