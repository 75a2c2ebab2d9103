import Foundation
import LiveActivityDomain
import TestSupport
import Testing

/// Several apps served by one deployment (SPEC 6 "Several apps"), through the real pieces: apps
/// registered through nginx under the locations the shipped example gives each (`fastcgi_param
/// LIVEACTIVITY_APP`), the real `liveactivity-sweep` pushing to the stand-in, which binds each
/// connection to one team and key as APNs does. Three apps: the default one (team 1, key 1),
/// `two` (team 2, key 2), `three` (the default app's team and key, one line of its own).
@Suite("Several apps end to end")
struct SeveralAppsEndToEndTests {
    static let threeBundleID = "com.example.three"

    /// The default app's key and team, and app two's.
    struct Keys {
        let folder = TemporaryDirectory("apps-keys")
        let first: TestKey
        let second: TestKey

        init() throws {
            first = try TestKey(in: folder, name: "First")
            second = try TestKey(in: folder, name: "Second", keyID: "KEY2222222", teamID: "TEAM222222", bundleID: "org.two.app")
        }

        /// The further apps' settings, as the settings file would hold them (the default app's are
        /// the stand-in's plain ones).
        var apps: [String: String] {
            [
                "LIVEACTIVITY_APPS": "two,three", "APNS_KEY_ID_TWO": second.keyID, "APNS_TEAM_ID_TWO": second.teamID,
                "APNS_BUNDLE_ID_TWO": second.bundleID, "APNS_KEY_PATH_TWO": second.privateKeyPath,
                "APNS_BUNDLE_ID_THREE": SeveralAppsEndToEndTests.threeBundleID,
            ]
        }
    }

    /// The shipped example of a second app's locations (nginx/liveactivity-locations.conf,
    /// between its BEGIN and END lines), uncommented as an operator does, for app `name`.
    static func shippedLocations(for name: String) throws -> String {
        let text = try Documents.text("nginx/liveactivity-locations.conf")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let begin = lines.firstIndex(of: "# BEGIN a second app"), let end = lines.firstIndex(of: "# END a second app"),
            begin < end
        else { throw SocketError("nginx/liveactivity-locations.conf has no example of a second app") }
        let example = lines[(begin + 1)..<end].map { String($0.dropFirst()) }
        #expect(example.count == 4 && example.allSatisfy { $0.contains("fastcgi_param LIVEACTIVITY_APP other;") }, "\(example)")
        return example.map {
            $0.replacingOccurrences(of: "/other/", with: "/\(name)/")
                .replacingOccurrences(of: "LIVEACTIVITY_APP other;", with: "LIVEACTIVITY_APP \(name);")
        }.joined(separator: "\n")
    }

    /// The stand-in serving the three apps, and the responder behind nginx with the shipped
    /// example's locations for `two` and `three`.
    static func deployment(_ engine: TestEngine, _ keys: Keys) throws -> (standIn: StandInStack, live: LiveStack) {
        let standIn = try StandInStack(key: keys.first, environment: keys.apps)
        var options = LiveStack.Options(engine: engine)
        options.environment = keys.apps
        options.serverLines = try shippedLocations(for: "two") + "\n" + shippedLocations(for: "three")
        return (standIn, try LiveStack(options, label: "apps"))
    }

    /// The sweep's settings as cron gives them: the stand-in's, the database's, every app's.
    static func sweepEnvironment(_ standIn: StandInStack, _ live: LiveStack, _ keys: Keys) -> [String: String] {
        var environment = standIn.sweepEnvironment(database: live.databasePath)
        environment.merge(live.database.programEnvironment) { _, new in new }
        environment.merge(keys.apps) { _, new in new }
        return environment
    }

    /// Each stored wake target as "app token", sorted.
    static func rows(_ live: LiveStack) throws -> [String] {
        try live.database.rows("SELECT app, registration_token FROM push_targets WHERE push_kind = 'wake'").map {
            "\($0[0] ?? "") \($0[1] ?? "")"
        }.sorted()
    }

    /// The team (`iss`) and key (`kid`) a provider token names, from its JWT.
    static func signer(_ authorization: String?) -> String {
        let parts = (authorization ?? "").replacingOccurrences(of: "bearer ", with: "").split(separator: ".")
        func object(_ part: Substring) -> [String: Any] {
            var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            let data = Data(base64Encoded: base64) ?? Data()
            return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        }
        guard parts.count == 3 else { return "?" }
        return "\(object(parts[1])["iss"] as? String ?? "?")/\(object(parts[0])["kid"] as? String ?? "?")"
    }

    @Test(arguments: TestEngine.real)
    func eachAppIsRegisteredUnderItsLocationAndPushedWithItsTopicAndKey(engine: TestEngine) throws {
        let keys = try Keys()
        let (standIn, live) = try Self.deployment(engine, keys)
        let (alone, shared, ofTwo, ofThree) = (testToken(3401), testToken(3402), testToken(3403), testToken(3404))
        for (path, token) in [
            ("/wakeup", alone), ("/wakeup", shared), ("/two/wakeup", shared), ("/two/wakeup", ofTwo), ("/three/wakeup", ofThree),
        ] {
            let answer = try live.request("POST", path, body: registerBody(token))
            #expect(answer.status == 200 && answer.text == #"{"success":true}"#, "\(path): \(answer.status) \(answer.text)")
        }
        // An app's unregister reaches its own registration only.
        #expect(try live.request("POST", "/two/wakeup/unregister", body: unregisterBody(alone)).status == 200)
        #expect(
            try Self.rows(live)
                == ["default \(alone)", "default \(shared)", "three \(ofThree)", "two \(shared)", "two \(ofTwo)"].sorted())

        let sweep = try runCommand(product("liveactivity-sweep"), environment: Self.sweepEnvironment(standIn, live, keys))
        // The line counts each app's pushes apart (SPEC 7): the default app's by the plain names.
        let counted = [" sent=2 ", " three/active=1 three/sent=1 ", " two/active=2 two/sent=2 "].allSatisfy(sweep.stdout.contains)
        #expect(sweep.status == 0 && counted, "\(sweep.stdout) \(sweep.stderr)")

        // Every push reached the stand-in with its app's topic, signed by its app's team and key,
        // and was answered 200 (no InvalidProviderToken or UnrelatedKeyIdInToken on a connection
        // another team or key had).
        let received = try standIn.state().received()
        let one = "\(keys.first.teamID)/\(keys.first.keyID)"
        let two = "\(keys.second.teamID)/\(keys.second.keyID)"
        let seen = received.map { "\($0.deviceToken) \($0.topic ?? "-") \(Self.signer($0.authorization)) \($0.status)" }.sorted()
        #expect(
            seen
                == [
                    "\(alone) \(keys.first.bundleID) \(one) 200", "\(shared) \(keys.first.bundleID) \(one) 200",
                    "\(shared) \(keys.second.bundleID) \(two) 200", "\(ofTwo) \(keys.second.bundleID) \(two) 200",
                    "\(ofThree) \(Self.threeBundleID) \(one) 200",
                ].sorted(), "\(seen)")
        #expect(received.allSatisfy { $0.reason == nil }, "\(received.compactMap(\.reason))")
        // Each connection carried one team and key (both lists are in arrival order).
        let arrivals = try standIn.state().arrivals()
        #expect(arrivals.map(\.deviceToken) == received.map(\.deviceToken))
        let byConnection = Dictionary(grouping: zip(arrivals, received), by: { $0.0.connection ?? "" }).mapValues {
            Set($0.map { Self.signer($0.1.authorization) })
        }
        #expect(byConnection.values.allSatisfy { $0.count == 1 }, "\(byConnection)")

        // Each app's row has its push: the same token under two apps is two rows, each pushed once.
        let counts = try live.database.rows(
            "SELECT app, registration_token, push_count FROM push_targets WHERE push_kind = 'wake'"
        ).map { "\($0[0] ?? "") \($0[1] ?? "") \($0[2] ?? "")" }.sorted()
        #expect(
            counts
                == ["default \(alone) 1", "default \(shared) 1", "three \(ofThree) 1", "two \(shared) 1", "two \(ofTwo) 1"]
                .sorted())
    }

    /// A wrong bundle id for app two (its team has no such app: TopicDisallowed) stops app two's
    /// pushes alone: the sweep exits 1 with a line naming app two, app two's rows wait one interval
    /// and are kept, and the default app's and app three's pushes of the same sweep go out.
    @Test(arguments: TestEngine.real)
    func aWrongBundleIDOfOneAppStopsThatAppAlone(engine: TestEngine) throws {
        let keys = try Keys()
        let (standIn, live) = try Self.deployment(engine, keys)
        let tokens = (alone: testToken(3411), shared: testToken(3412), ofTwo: testToken(3413), ofThree: testToken(3414))
        let registrations = [
            ("/wakeup", tokens.alone), ("/wakeup", tokens.shared), ("/two/wakeup", tokens.shared), ("/two/wakeup", tokens.ofTwo),
            ("/three/wakeup", tokens.ofThree),
        ]
        func registerAll() throws {
            for (path, token) in registrations {
                #expect(try live.request("POST", path, body: registerBody(token)).status == 200, "\(path)")
            }
        }
        try registerAll()
        var environment = Self.sweepEnvironment(standIn, live, keys)
        let first = try runCommand(product("liveactivity-sweep"), environment: environment)
        let counted = [" sent=2 ", " three/sent=1 ", " two/sent=2 "].allSatisfy(first.stdout.contains)
        #expect(first.status == 0 && counted, "\(first.stdout) \(first.stderr)")

        // The apps refresh (due at once again); app two's bundle id is now one its team lacks.
        try registerAll()
        let before = try standIn.state().received().count
        environment["APNS_BUNDLE_ID_TWO"] = "org.two.wrong"
        let started = Clock().now()
        let sweep = try runCommand(product("liveactivity-sweep"), environment: environment)
        let ended = Clock().now()
        #expect(sweep.status == 1, "\(sweep.stdout) \(sweep.stderr)")
        let faultLines = (sweep.stdout + sweep.stderr).split(separator: "\n").filter { $0.contains("fault in ") }
        #expect(faultLines.count == 1, "\(faultLines)")
        #expect(
            faultLines.first?.contains("configuration fault in two production: TopicDisallowed; check APNS_BUNDLE_ID_TWO ")
                == true, "the line names the app and its own setting: \(sweep.stdout) \(sweep.stderr)")
        #expect(
            SweepFixture.field("faults", in: sweep.stdout)?.hasPrefix("two/production:TopicDisallowed:") == true,
            "\(sweep.stdout)")

        let second = try standIn.state().received().dropFirst(before)
        let others = second.filter { $0.topic != "org.two.wrong" }
        #expect(
            others.map { "\($0.deviceToken) \($0.topic ?? "-") \($0.status)" }.sorted()
                == [
                    "\(tokens.alone) \(keys.first.bundleID) 200", "\(tokens.shared) \(keys.first.bundleID) 200",
                    "\(tokens.ofThree) \(Self.threeBundleID) 200",
                ].sorted(), "the default app's and app three's pushes went out: \(others)")
        let wrong = second.filter { $0.topic == "org.two.wrong" }
        #expect(!wrong.isEmpty && wrong.allSatisfy { $0.status == 400 && $0.reason == "TopicDisallowed" }, "\(wrong)")

        // App two's rows are held: kept, not pushed, next push one interval (300 s) on.
        let held = try live.database.rows(
            "SELECT registration_token, push_count, next_push_at FROM push_targets WHERE app = 'two' AND push_kind = 'wake'")
        #expect(held.count == 2, "\(held)")
        for row in held {
            #expect(row[1] == "1", "only the first sweep's push delivered: \(row)")
            let next = Int64(row[2] ?? "") ?? 0
            #expect(next >= started + 300_000 - 1000 && next <= ended + 300_000 + 1000, "\(row), sweep \(started)...\(ended)")
        }
        let delivered = try live.database.rows(
            "SELECT app, registration_token, push_count FROM push_targets WHERE app <> 'two' AND push_kind = 'wake'"
        ).map { "\($0[0] ?? "") \($0[1] ?? "") \($0[2] ?? "")" }.sorted()
        #expect(
            delivered == ["default \(tokens.alone) 2", "default \(tokens.shared) 2", "three \(tokens.ofThree) 2"].sorted(),
            "\(delivered)")
    }

    /// A bad app setting stops the sweep with one line naming it and exit 2, before it sends
    /// anything or touches a row (the stand-in's own refusal is StandInAppsTests').
    @Test(
        arguments: TestEngine.real,
        [
            ([:], "configuration: APNS_BUNDLE_ID_TWO is not set"),
            (["APNS_BUNDLE_ID_TWO": "com.example.betterblue"], "configuration: APNS_BUNDLE_ID_TWO is malformed"),
        ])
    func aBadAppSettingStopsTheSweepBeforeItSends(engine: TestEngine, _ setting: (settings: [String: String], message: String))
        throws
    {
        let (settings, message) = setting
        let fixture = try SweepFixture(engine)
        try fixture.register(1...3)
        let rows = try storedRows(fixture.database)
        var extra = ["LIVEACTIVITY_APPS": "two"]
        extra.merge(settings) { _, new in new }
        let run = try fixture.sweep(extra)
        #expect(run.status == 2, "\(run.stdout) \(run.stderr)")
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.contains(message) == true, "\(run.stderr)")
        #expect(run.stdout.isEmpty, "no summary line: \(run.stdout)")
        #expect(try fixture.received().isEmpty, "nothing sent")
        #expect(try storedRows(fixture.database) == rows, "no row touched")
    }

    /// README's "A second app" as written: its settings block appended to the settings file the
    /// responder and the sweep read (`LIVEACTIVITY_CONFIG`), its nginx lines in the server block
    /// (the package's snippet shows the same lines, commented), and its check run against the
    /// deployment, before and after the app registered and the sweep pushed it.
    @Test(arguments: TestEngine.real)
    func theReadmesSecondAppRunsAsWritten(engine: TestEngine) throws {
        let blocks = try MarkdownBlock.all(in: "README.md").filter { $0.heading == "A second app" }
        let shell = blocks.filter { $0.language == "sh" }
        let locations = try #require(blocks.first { $0.language == "nginx" }, "README's second app has no nginx block")
        try #require(shell.count == 2, "README's second app: the settings block, then the check")
        let configPath = "/etc/liveactivity/liveactivity.conf"
        #expect(shell[0].text.contains(configPath) && shell[1].text.contains(configPath))

        // The package's snippet ends its routes with these very lines, commented out.
        let built = TemporaryDirectory("apps-nginx-files")
        let made = try runCommand("/bin/sh", [packageRoot + "/debian/nginx-files", packageRoot + "/nginx", built.path])
        #expect(made.status == 0, "\(made.stderr)")
        let snippet = try String(contentsOfFile: built.file("snippets/liveactivity.conf"), encoding: .utf8)
        let example = snippet.split(separator: "\n").drop { $0 != "# BEGIN a second app" }.dropFirst()
            .prefix { $0 != "# END a second app" }.map { String($0.dropFirst()) }
        #expect(example.joined(separator: "\n") + "\n" == locations.text, "\(example)")

        // The operator's settings file (the default app's settings, here the stand-in's), then the
        // block appended to it as written; the stand-in serves the apps the block names.
        let folder = TemporaryDirectory("apps-readme")
        let config = folder.file("liveactivity.conf")
        let appended = shell[0].text.split(separator: "\n").compactMap { line -> (String, String)? in
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].allSatisfy({ $0.isUppercase || $0 == "_" }) else { return nil }
            return (String(parts[0]), String(parts[1]))
        }
        #expect(appended.map(\.0) == ["LIVEACTIVITY_APPS", "APNS_BUNDLE_ID_OTHER"], "\(appended)")
        let standIn = try StandInStack(environment: Dictionary(appended) { _, new in new })
        var base = standIn.sweepEnvironment(database: "unused")
        for name in ["LIVEACTIVITY_DB", "LIVEACTIVITY_SWEEP_DIR", "PATH"] { base[name] = nil }
        try (base.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n") + "\n")
            .write(toFile: config, atomically: true, encoding: .utf8)
        let bash = try #require(systemTool("bash"))
        let settings = try runCommand(
            bash, ["-euo", "pipefail", "-c", shell[0].text.replacingOccurrences(of: configPath, with: config)])
        #expect(settings.status == 0, "\(settings.stderr)")

        // The responder started after the change (as restarted), nginx with the block's lines (by
        // the hand-made snippets' name for the FastCGI file, which the package renames).
        var options = LiveStack.Options(engine: engine)
        options.environment = ["LIVEACTIVITY_CONFIG": config]
        options.serverLines = locations.text.replacingOccurrences(
            of: "snippets/liveactivity-fastcgi-pass.conf", with: "snippets/liveactivity-fastcgi.conf")
        let live = try LiveStack(options, label: "apps-readme")
        var environment = live.database.programEnvironment
        environment["PATH"] = "/usr/bin:/bin"

        /// The check block's lines, each run as written on this deployment.
        func check() throws -> [CommandResult] {
            try shell[1].text.split(separator: "\n").map { line in
                let command = String(line)
                    .replacingOccurrences(
                        of: "--resolve wakeup.your-domain.tld:443:127.0.0.1 https://wakeup.your-domain.tld",
                        with: "http://127.0.0.1:\(live.port)"
                    )
                    .replacingOccurrences(of: "runuser -u liveactivity -- ", with: "")
                    .replacingOccurrences(of: configPath, with: config)
                    .replacingOccurrences(of: " liveactivity-sweep ", with: " \(product("liveactivity-sweep")) ")
                return try runCommand(bash, ["-euo", "pipefail", "-c", command], environment: environment)
            }
        }
        let before = try check()
        #expect(before.count == 2 && before.allSatisfy { $0.status == 0 }, "\(before.map(\.stderr))")
        #expect(before.first?.stdout == #"{"success":true}"#, "the new location knows the app: \(before.first?.stdout ?? "")")

        // The app registers at its location; the next sweep pushes it with its own topic.
        let token = testToken(3421)
        #expect(try live.request("POST", "/other/wakeup", body: registerBody(token)).status == 200)
        var sweepEnvironment = environment
        sweepEnvironment["LIVEACTIVITY_CONFIG"] = config
        let sweep = try runCommand(product("liveactivity-sweep"), environment: sweepEnvironment)
        #expect(sweep.status == 0 && sweep.stdout.contains(" other/sent=1 "), "\(sweep.stdout) \(sweep.stderr)")
        let pushes = try standIn.state().received(token: token)
        #expect(pushes.map { "\($0.topic ?? "-") \($0.status)" } == ["com.example.other 200"])

        let after = try check()
        #expect(after.allSatisfy { $0.status == 0 }, "\(after.map(\.stderr))")
        // `stats` counts the new app's registration apart ("other charging / production: 1").
        let stats = after.last?.stdout.split(separator: "\n") ?? []
        #expect(stats.contains { $0.hasPrefix("  other ") && $0.hasSuffix(": 1") }, "\(stats)")
        #expect(!stats.contains { $0.hasPrefix("  charging ") }, "the default app has no registration: \(stats)")
    }
}
