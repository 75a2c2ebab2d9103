import Foundation
import TestSupport
import Testing

/// Every numeric setting is bounded and finite (SPEC 6, issue #8 defect 6): a hostile value is
/// one line naming the setting and exit 2, never a trap with a backtrace - in each program that
/// uses the setting. A program ignores the settings it does not use (the responder and the
/// APNs ones, defect 5b).
@Suite("Setting bounds")
struct SettingBoundsTests {
    /// The shared settings (`Configuration`): both programs read them.
    static let shared = [
        "LIVEACTIVITY_MAX_REGISTRATIONS", "LIVEACTIVITY_EXPIRY_HOURS", "LIVEACTIVITY_BUSY_TIMEOUT_MS",
        "LIVEACTIVITY_SQLITE_MAX_PAGES", "LIVEACTIVITY_TEST_CLOCK_OFFSET",
    ]
    /// Settings only a sweep run reads (`stats` does not).
    static let sweepOnly = ["LIVEACTIVITY_APNS_CONCURRENCY", "LIVEACTIVITY_APNS_TIMEOUT", "LIVEACTIVITY_SWEEP_BUDGET"]
    /// The interval bounds: a sweep run pushes by them, the responder answers an app's `interval`
    /// and matches acks by them (issue 16); `stats` reads none.
    static let intervals = ["LIVEACTIVITY_INTERVAL_CHARGING", "LIVEACTIVITY_INTERVAL_DEBUG", "LIVEACTIVITY_INTERVAL_MAX"]
    /// Values no numeric setting accepts: huge, not finite, or not a plain number.
    static let hostile = ["1e300", "-1e300", "nan", "inf", "-inf", "1e19", "-9223372036854775809", "12abc", "0x10"]

    let folder = TemporaryDirectory("bounds")

    /// `liveactivity-sweep stats` with one setting: it reads every setting before the database.
    func stats(_ name: String, _ value: String) throws -> CommandResult {
        try runCommand(
            product("liveactivity-sweep"), ["stats"],
            environment: ["LIVEACTIVITY_DB": folder.file("none.sqlite"), name: value, "PATH": "/usr/bin:/bin"])
    }

    /// One sweep run with working credentials and nothing due, so only `name` can stop it.
    func sweep(_ name: String, _ value: String) throws -> CommandResult {
        let key = try TestKey(in: folder)
        return try runCommand(
            product("liveactivity-sweep"), [],
            environment: [
                "LIVEACTIVITY_DB": folder.file("sweep.sqlite"), "APNS_KEY_ID": key.keyID, "APNS_TEAM_ID": key.teamID,
                "APNS_BUNDLE_ID": key.bundleID, "APNS_KEY_PATH": key.privateKeyPath, "APNS_HOST": "https://127.0.0.1:9",
                name: value, "PATH": "/usr/bin:/bin",
            ])
    }

    /// The responder as CGI answering `GET /wakeup/health` with one setting.
    func health(_ settings: [String: String]) throws -> CommandResult {
        var environment = [
            "GATEWAY_INTERFACE": "CGI/1.1", "REQUEST_METHOD": "GET", "SCRIPT_NAME": "/wakeup", "PATH_INFO": "/health",
            "LIVEACTIVITY_DB": folder.file("cgi.sqlite"), "PATH": "/usr/bin:/bin",
        ]
        environment.merge(settings) { _, new in new }
        return try runCommand(product("liveactivity-fcgi"), [], environment: environment)
    }

    func expectRefused(_ run: CommandResult, _ program: String, _ name: String, _ value: String) {
        let lines = run.stderr.split(separator: "\n")
        let oneLine = run.status == 2 && lines.count == 1 && lines.first?.contains(name) == true
        #expect(oneLine, "\(program) with \(name)=\(value): exit \(run.status), stderr '\(run.stderr.prefix(200))'")
        #expect(!run.stderr.contains("Backtrac") && !run.stderr.contains("Fatal error"), "\(program) trapped on \(name)=\(value)")
    }

    @Test(arguments: shared)
    func statsRefusesAHostileValueWithOneLine(_ name: String) throws {
        for value in Self.hostile { expectRefused(try stats(name, value), "liveactivity-sweep stats", name, value) }
    }

    @Test(arguments: sweepOnly + intervals)
    func aSweepRunRefusesAHostileValueOfItsOwnSettings(_ name: String) throws {
        for value in Self.hostile { expectRefused(try sweep(name, value), "liveactivity-sweep", name, value) }
        let fine = try sweep(name, "7")
        #expect(fine.status == 0, "a sweep with \(name)=7 and nothing due: exit \(fine.status): \(fine.stderr)")
    }

    @Test(arguments: shared + intervals)
    func theResponderRefusesAHostileValueOfItsOwnSettings(_ name: String) throws {
        for value in Self.hostile { expectRefused(try health([name: value]), "liveactivity-fcgi", name, value) }
    }

    @Test func theTestClockIsBoundedToAYearEitherWay() throws {
        for value in ["31622401", "-31622401", "1e10"] {
            expectRefused(
                try stats("LIVEACTIVITY_TEST_CLOCK_OFFSET", value), "liveactivity-sweep", "LIVEACTIVITY_TEST_CLOCK_OFFSET", value)
        }
        for value in ["2678400", "-3600", "0.5"] {
            let run = try health(["LIVEACTIVITY_TEST_CLOCK_OFFSET": value])
            let healthy = run.status == 0 && run.stdout.contains("\"status\":\"ok\"")
            #expect(healthy, "LIVEACTIVITY_TEST_CLOCK_OFFSET=\(value) was refused: \(run.stderr)")
        }
    }

    @Test func anEmptyOrBlankSettingMeansItsDefault() throws {
        for name in Self.shared + Self.sweepOnly + Self.intervals {
            for value in ["", " "] {
                let run = try health([name: value])
                #expect(run.status == 0 && run.stdout.contains("\"status\":\"ok\""), "\(name)='\(value)': \(run.stderr)")
            }
        }
    }

    /// SPEC 2 and 6: the responder reads no APNs credential and ignores settings it does not use,
    /// even malformed ones, in the shared configuration file.
    @Test func theResponderIgnoresTheSweepsSettingsInTheSharedFile() throws {
        let config = try folder.write(
            "liveactivity.env",
            """
            APNS_KEY=not a key at all
            APNS_KEY_PATH=/nonexistent/AuthKey.p8
            APNS_KEY_ID=x
            APNS_HOST=http://not-https
            APNS_CA_FILE=/nonexistent/ca.pem
            LIVEACTIVITY_APNS_TIMEOUT=nan
            LIVEACTIVITY_APNS_CONCURRENCY=-5
            LIVEACTIVITY_SWEEP_BUDGET=1e300

            """)
        let run = try health(["LIVEACTIVITY_CONFIG": config])
        #expect(run.status == 0, "the responder refused a sweep-only setting: \(run.stderr)")
        #expect(run.stdout.contains("\"status\":\"ok\""), "health: \(run.stdout)")
        #expect(run.stderr.isEmpty, "the responder complained about a setting it does not use: \(run.stderr)")
    }
}
