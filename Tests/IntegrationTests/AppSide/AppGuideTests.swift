import Foundation
import LiveActivityWakeClient
import TestSupport
import Testing

/// docs/APP.md as the app's developer follows it: its Swift compiled (with the library, as an
/// app's package adds it; without it, by swiftc alone) and run against the responder through
/// nginx, its curl lines run as written, and `history` read as it says.
@Suite("App guide")
struct AppGuideTests {
    /// The guide's library blocks (and docs/API.md's example) in a package of their own that depends
    /// on this one by path, as an app's does, beside stand-ins of UIKit, ActivityKit, WidgetKit
    /// and SwiftUI (Tests/Fixtures/AppleStandIns: Apple's names and signatures, so the blocks
    /// compile as written; only `@main` is taken off, the driver being the program's entry). A
    /// driver then runs the guide's code one launch per process, as iOS would call it, against
    /// the responder through nginx: the activity started and registered, a relaunch that sends
    /// nothing, a wake that refreshes the activity (its `staleDate` moved) and acks, a new device
    /// token registered again, a relaunch and a wake that find no activity and ack `activities:
    /// 0`, and the feature turned off.
    @Test(arguments: TestEngine.real) func theGuidesSwiftCompilesInAnAppsPackageAndRunsEachLaunchAgainstTheResponder(
        engine: TestEngine
    ) throws {
        let guide = try AppGuide()
        let stack = try LiveStack(engine)
        let folder = TemporaryDirectory("app-guide")
        let sources = folder.file("AppGuide/Sources/AppGuide")
        try FileManager.default.createDirectory(atPath: sources, withIntermediateDirectories: true)
        let frameworks = ["UIKit", "ActivityKit", "WidgetKit", "SwiftUI"]
        for framework in frameworks {
            let target = folder.file("AppGuide/Sources/\(framework)")
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: packageRoot + "/Tests/Fixtures/AppleStandIns/\(framework)/\(framework).swift",
                toPath: target + "/\(framework).swift")
        }
        let identity = URL(fileURLWithPath: packageRoot).lastPathComponent.lowercased()
        _ = try folder.write(
            "AppGuide/Package.swift",
            """
            // swift-tools-version:6.0
            import PackageDescription
            // Resilient, as Apple's frameworks are (so `@unknown default` is what it is on iOS);
            // the stand-ins' own warnings (Foundation is not resilient) are not the guide's.
            let standIn: [SwiftSetting] = [.unsafeFlags(["-enable-library-evolution", "-suppress-warnings"])]
            let package = Package(
                name: "AppGuide",
                platforms: [.iOS(.v16), .macOS(.v13)],
                dependencies: [.package(path: "\(packageRoot)")],
                targets: [
                    .target(name: "UIKit", swiftSettings: standIn),
                    .target(name: "ActivityKit", swiftSettings: standIn),
                    .target(name: "WidgetKit", swiftSettings: standIn),
                    .target(name: "SwiftUI", dependencies: ["UIKit"], swiftSettings: standIn),
                    .executableTarget(
                        name: "AppGuide",
                        dependencies: [
                            "UIKit", "ActivityKit", "WidgetKit", "SwiftUI",
                            .product(name: "LiveActivityWakeClient", package: "\(identity)"),
                        ])
                ],
                swiftLanguageModes: [.v6]
            )

            """)
        #expect(guide.librarySwift.count >= 5, "the client, the app delegate, the SwiftUI app, the activity, the widget")
        #expect(
            guide.librarySwift.allSatisfy { !$0.contains("#if canImport") },
            "the blocks compile as written, UIKit's parts included")
        #expect(
            frameworks.allSatisfy { framework in guide.librarySwift.contains { $0.contains("import \(framework)\n") } },
            "each stand-in is imported by a block of the guide")
        let client = try #require(
            guide.librarySwift.firstIndex { $0.contains(AppGuide.exampleBackend) }, "no block names the backend")
        var entries = 0
        for (index, block) in guide.librarySwift.enumerated() {
            var text = index == client ? try pointingAt("http://127.0.0.1:\(stack.port)", block) : block
            if text.contains("@main\n") {
                entries += 1
                text = text.replacingOccurrences(of: "@main\n", with: "")
            }
            _ = try folder.write("AppGuide/Sources/AppGuide/Guide\(index + 1).swift", text)
        }
        #expect(entries == 1, "one block is the app's entry (the SwiftUI app)")
        // docs/API.md's example beside them: the same library, the same build.
        let readme = try MarkdownBlock.all("swift", in: "docs/API.md").filter { $0.heading == "The app's side" }
        #expect(readme.count == 1, "docs/API.md's \"The app's side\" should hold one Swift example")
        for block in readme { _ = try folder.write("AppGuide/Sources/AppGuide/Readme.swift", block.text) }
        _ = try folder.write("AppGuide/Sources/AppGuide/main.swift", Self.libraryDriver)
        let swift = try swiftTool("swift")
        let build = try runCommand(
            swift, ["build", "--package-path", folder.file("AppGuide"), "--scratch-path", folder.file("scratch")],
            environment: [
                "PATH": "/usr/bin:/bin:" + URL(fileURLWithPath: swift).deletingLastPathComponent().path, "HOME": folder.path,
            ],
            timeout: 1200)
        try #require(
            build.status == 0, "the guide's Swift does not build:\n\(build.stdout.suffix(4000))\n\(build.stderr.suffix(2000))")
        #expect(!build.stdout.contains("warning:"), "\(build.stdout)")
        let app = folder.file("scratch/debug/AppGuide")

        let token = deviceToken(800)
        let widget = deviceToken(801)
        let newToken = deviceToken(802)
        func launch(_ step: String, _ device: DeviceToken = token) throws -> CommandResult {
            try runCommand(app, [step, device.hex, widget.hex], environment: ["HOME": folder.path], timeout: 120)
        }
        let started = try launch("start")
        #expect(
            started.status == 0 && started.stdout == "interval=900 widgetInterval=3600 paused=none\nstale in 45 min\n",
            "\(started)")
        let row = try #require(try storedRegistration(token.hex, in: stack))
        #expect(row.requestedInterval == 900 && row.environment == .sandbox, "a debug build registers in the sandbox")
        let widgets = try #require(row.target(.widgets), "the widget extension's token is a target of its own")
        #expect(widgets.token.hex == widget.hex && widgets.requestedInterval == 3600)

        // Launched again with the same tokens and the activity on screen: nothing to send.
        let relaunched = try launch("relaunch")
        #expect(relaunched.status == 0 && relaunched.stdout == "launched\n", "\(relaunched)")
        let woke = try launch("wake")
        #expect(woke.status == 0 && woke.stdout == "wake=newData\nstale in 45 min\n", "\(woke)")
        #expect(try ackWaits(on: token.hex, in: stack), "the ack reached the backend")
        #expect(loggedRequests(stack, "/prod/wakeup/ack", status: 200, expected: 1) == 1)
        #expect(loggedRequests(stack, "/prod/wakeup", status: 200, expected: 1) == 1, "no registration but the first")

        // The user turned Background App Refresh off: the next launch says so (the wakes pause),
        // and the launch after it was turned on again resumes them.
        func refresh() throws -> Int64? {
            try stack.database.scalar(
                "SELECT CASE background_refresh WHEN 'denied' THEN 0 WHEN 'available' THEN 1 END FROM push_targets "
                    + "WHERE push_token = '\(token.hex)' AND push_kind = 'wake'")
        }
        let denied = try launch("relaunch-refresh-off")
        #expect(denied.status == 0 && denied.stdout == "launched\n", "\(denied)")
        #expect(try refresh() == 0 && loggedRequests(stack, "/prod/wakeup", status: 200, expected: 2) == 2)
        let resumed = try launch("relaunch")
        #expect(resumed.status == 0 && resumed.stdout == "launched\n", "\(resumed)")
        #expect(try refresh() == 1 && loggedRequests(stack, "/prod/wakeup", status: 200, expected: 3) == 3)

        // A new device token at a launch (a restored phone): registered again, with the interval.
        let moved = try launch("relaunch", newToken)
        #expect(moved.status == 0 && moved.stdout == "launched\n", "\(moved)")
        let again = try #require(try storedRegistration(newToken.hex, in: stack), "the new token is registered")
        #expect(again.requestedInterval == 900 && again.target(.widgets)?.token.hex == widget.hex)
        #expect(loggedRequests(stack, "/prod/wakeup", status: 200, expected: 4) == 4)

        // The backend lost the registration (here: unregistered behind the app's back). The
        // "why is it stale?" screen says so, and the app registers again at once.
        let lost = try stack.request("POST", "/prod/wakeup/unregister", body: "{\"pushToken\":\"\(newToken.hex)\"}")
        #expect(lost.status == 200)
        let why = try launch("why", newToken)
        #expect(why.status == 0 && why.stdout.hasPrefix("This device is not registered for wake-ups"), "\(why)")
        #expect(loggedRequests(stack, "/prod/wakeup/diagnostics", status: 200, expected: 1) == 1)
        #expect(loggedRequests(stack, "/prod/wakeup", status: 200, expected: 5) == 5, "registered again")
        #expect(try storedRegistration(newToken.hex, in: stack)?.requestedInterval == 900)

        // The activity was swiped away while the app was not running: the launch says so.
        let none = try launch("relaunch-none", newToken)
        #expect(none.status == 0 && none.stdout == "launched\n", "\(none)")
        #expect(loggedRequests(stack, "/prod/wakeup/ack", status: 200, expected: 2) == 2)
        #expect(
            try stack.database.scalar(
                "SELECT activities FROM push_targets WHERE push_token = '\(newToken.hex)' AND push_kind = 'wake'") == 0,
            "the backend knows no activity runs")
        // A wake that finds none acks the same, and refreshes nothing.
        let gone = try launch("wake-none", newToken)
        #expect(gone.status == 0 && gone.stdout == "wake=noData\n", "\(gone)")
        #expect(loggedRequests(stack, "/prod/wakeup/ack", status: 200, expected: 3) == 3)

        let off = try launch("off", newToken)
        #expect(off.status == 0 && off.stdout == "off\n", "\(off)")
        #expect(try storedRegistration(newToken.hex, in: stack) == nil)
        #expect(loggedRequests(stack, "/prod/wakeup/unregister", status: 200, expected: 2) == 2)
        #expect(loggedRequests(stack, "/prod/wakeup", status: 200, expected: 5) == 5, "never a registration at a wake")
    }

    /// One launch of the guide's app: `start`, `relaunch`, `relaunch-refresh-off` (Background
    /// App Refresh turned off), `wake` (an activity of an earlier launch on screen), `why` (the
    /// diagnostics screen, an activity on screen),
    /// `relaunch-none`, `wake-none` (none left) or `off`; the device's and the
    /// widget's token. UIKit's calls go through the delegate protocol, so a method whose
    /// signature is not UIKit's would not be the one called; the token's handling, which the
    /// delegate starts in a task of its own, is awaited here. Each launch is a process of its
    /// own: what the guide keeps between launches is in UserDefaults, in the test's HOME.
    static let libraryDriver = """
        import ActivityKit
        import Foundation
        import LiveActivityWakeClient
        import UIKit
        import WidgetKit

        let arguments = CommandLine.arguments
        guard arguments.count == 4, let device = DeviceToken(hex: arguments[2]), let widget = DeviceToken(hex: arguments[3]) else {
            fatalError("usage: step device widget")
        }
        func bytes(_ token: DeviceToken) -> Data {
            let hex = Array(token.hex.utf8)
            return Data(stride(from: 0, to: hex.count, by: 2).map { UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)! })
        }
        WidgetCenter.standInPushInfo = WidgetPushInfo(standInToken: bytes(widget))
        let earlier = ChargingAttributes.ContentState(percent: 42, measuredAt: Date(timeIntervalSince1970: 0))
        if arguments[1] == "relaunch-refresh-off" { StandIn.backgroundRefreshStatus = .denied }
        if ["relaunch", "relaunch-refresh-off", "wake", "why"].contains(arguments[1]) {
            _ = try Activity.request(
                attributes: ChargingAttributes(carName: "Ioniq"), content: ActivityContent(state: earlier, staleDate: nil), pushType: nil)
        }
        func staleIn() -> String {
            guard let date = runningActivities().first?.content.staleDate else { return "no stale date" }
            return "stale in \\(Int((date.timeIntervalSinceNow / 60).rounded())) min"
        }
        let delegate: any UIApplicationDelegate = AppDelegate()
        _ = delegate.application(UIApplication.shared, didFinishLaunchingWithOptions: nil)
        await LiveActivityWakeups.deviceTokenArrived(device, widgetToken: await currentWidgetToken(), state: deviceState())
        switch arguments[1] {
        case "start":
            let applied = await startChargingActivity(carName: "Ioniq", status: earlier, every: 900)
            print("interval=\\(applied?.interval.map(String.init) ?? "none") widgetInterval=\\(applied?.widgetInterval.map(String.init) ?? "none") paused=\\(applied?.paused?.rawValue ?? "none")")
            print(staleIn())
        case "wake", "wake-none":
            let result = await delegate.application(UIApplication.shared, didReceiveRemoteNotification: ["liveActivityWakeup": true])
            print("wake=\\(result)")
            if arguments[1] == "wake" { print(staleIn()) }
        case "off":
            await LiveActivityWakeups.wakeupsOff()
            print("off")
        case "why":
            for line in await LiveActivityWakeups.whyIsItStale() { print(line) }
        default:
            print("launched")
        }
        // iOS keeps the app's defaults by itself; Foundation on Linux writes them only when asked.
        UserDefaults.standard.synchronize()

        """

    /// The guide's plain URLSession block and a driver, one file built by swiftc, as an app makes
    /// its requests without the library: it registers, acks, unregisters and reads a 400.
    @Test(arguments: TestEngine.real) func theGuidesPlainURLSessionClientBuiltBySwiftcRegistersAcksAndUnregisters(
        engine: TestEngine
    ) throws {
        let guide = try AppGuide()
        let stack = try LiveStack(engine)
        let folder = TemporaryDirectory("plain-client")
        let source = try folder.write(
            "main.swift", try pointingAt("http://127.0.0.1:\(stack.port)", guide.plainSwift) + "\n" + Self.plainDriver)
        let swiftc = try swiftTool("swiftc")
        let build = try runCommand(
            swiftc, ["-swift-version", "6", "-warnings-as-errors", "-o", folder.file("plain-client"), source],
            environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path], timeout: 600)
        try #require(build.status == 0, "the guide's plain client does not build: \(build.stdout) \(build.stderr)")

        let token = testToken(810)
        func step(_ name: String, _ token: String) throws -> CommandResult {
            try runCommand(folder.file("plain-client"), [name, token], environment: ["HOME": folder.path], timeout: 120)
        }
        let registered = try step("register", token)
        #expect(registered.status == 0 && registered.stdout == "interval=900\n", "\(registered)")
        #expect(try storedRegistration(token, in: stack)?.environment == .production, "built without DEBUG")
        let acked = try step("ack", token)
        #expect(acked.status == 0 && acked.stdout == "acked\n", "\(acked)")
        #expect(try ackWaits(on: token, in: stack), "the ack reached the backend")
        let refused = try step("register", String(token.prefix(62)))
        #expect(
            refused.status == 1 && refused.stdout == "refused 400 pushToken is too short (at least 64 hex characters)\n",
            "\(refused)")
        let unregistered = try step("unregister", token)
        #expect(unregistered.status == 0 && unregistered.stdout == "unregistered\n", "\(unregistered)")
        #expect(try stack.database.count() == 0)
    }

    /// Appended to the guide's plain block: `register`, `ack` or `unregister` and a hex token.
    static let plainDriver = """
        // MARK: - The test's driver

        let arguments = CommandLine.arguments
        let hexDigits = Array(arguments[2].utf8)
        let token = Data(stride(from: 0, to: hexDigits.count, by: 2).map { UInt8(String(decoding: hexDigits[$0..<$0 + 2], as: UTF8.self), radix: 16)! })
        do {
            switch arguments[1] {
            case "register":
                print("interval=\\(try await registerForWakeups(deviceToken: token, every: 900).map(String.init) ?? "none")")
            case "ack":
                try await acknowledgeWakeup(deviceToken: token)
                print("acked")
            default:
                try await unregisterWakeups(deviceToken: token)
                print("unregistered")
            }
        } catch let refusal as WakeupRefused {
            print("refused \\(refusal.status) \\(refusal.reason ?? "-")")
            exit(1)
        }

        """

    /// The curl block, run by bash as written but for the backend's URL: each command's output
    /// is the line its `# →` comment shows.
    @Test(arguments: TestEngine.real)
    func everyCurlLineOfTheGuideRunsAgainstTheResponder(engine: TestEngine) throws {
        let guide = try AppGuide()
        let stack = try LiveStack(engine)
        let script = try pointingAt("http://127.0.0.1:\(stack.port)", guide.curlBlock)
        let expected = script.components(separatedBy: "\n").filter { $0.hasPrefix("# → ") }.map { String($0.dropFirst(4)) }
        #expect(expected.count == 5, "\(expected)")
        let folder = TemporaryDirectory("app-curl")
        let path = try folder.write("guide.sh", "set -euo pipefail\n" + script)
        let bash = try #require(systemTool("bash"))
        let result = try runCommand(bash, [path], environment: ["PATH": "/usr/bin:/bin"], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.components(separatedBy: "\n").dropLast() == expected[...], "\(result.stdout)")
        let token = try guide.shellVariable("TOKEN")
        #expect(try storedRegistration(token, in: stack) == nil, "the block ends by unregistering")
        #expect(loggedRequests(stack, "/prod/wakeup/ack", status: 200, expected: 1) == 1)
        #expect(loggedRequests(stack, "/prod/wakeup/unregister", status: 200, expected: 1) == 1)
        #expect(loggedRequests(stack, "/prod/wakeup", status: 200, expected: 2) == 2)
        #expect(loggedRequests(stack, "/prod/wakeup", status: 400, expected: 1) == 1)
    }

    /// `history` as the guide's operator runs it, as root with the host's settings: the line is
    /// OPERATIONS.md's way of running the sweep's commands, and run here as written but for the
    /// settings file (this stack's database) and `runuser` (the test is not root): the first lines
    /// are the guide's sample's, for the guide's token registered as its curl block does.
    @Test(arguments: TestEngine.real)
    func theHistoryLineRunsWithTheHostsSettingsAndShowsTheGuidesSample(engine: TestEngine)
        async throws
    {
        let guide = try AppGuide()
        let stack = try LiveStack(engine)
        let token = try #require(DeviceToken(hex: try guide.shellVariable("TOKEN")))
        let operations = try Documents.text("docs/OPERATIONS.md")
        let prefix = try #require(
            operations.firstMatch(of: /`(runuser -u liveactivity -- env LIVEACTIVITY_CONFIG=[^ `]+ liveactivity-sweep) stats`/)?
                .output.1, "OPERATIONS.md runs no command as the sweep's user")
        #expect(guide.historyLine.hasPrefix(String(prefix) + " history "), "\(guide.historyLine)")
        let prefixDigits = try #require(guide.historyLine.split(separator: " ").last.map(String.init))
        #expect(prefixDigits.count >= 8 && token.hex.hasPrefix(prefixDigits))
        try await wakeClient(stack, prefix: "/prod", environment: .sandbox).register(deviceToken: token, interval: 900)

        let folder = TemporaryDirectory("app-history")
        let settings = try folder.write(
            "liveactivity.conf", stack.database.programEnvironment.map { "\($0.key)=\($0.value)\n" }.sorted().joined())
        let command = guide.historyLine
            .replacingOccurrences(of: "runuser -u liveactivity -- ", with: "")
            .replacingOccurrences(of: "/etc/liveactivity/liveactivity.conf", with: settings)
            .replacingOccurrences(of: " liveactivity-sweep ", with: " \(product("liveactivity-sweep")) ")
        let bash = try #require(systemTool("bash"))
        func run() throws -> CommandResult {
            try runCommand(bash, ["-euo", "pipefail", "-c", command], environment: ["PATH": "/usr/bin:/bin"])
        }
        let story = try run()
        #expect(story.status == 0, "\(story.stderr)")
        let lines = story.stdout.components(separatedBy: "\n")
        #expect(Array(lines.prefix(2)) == Array(guide.historySample.prefix(2)), "\(story.stdout)")
        #expect(lines.contains("Attempts: none yet (pushed at the next sweep)"), "\(story.stdout)")
        #expect(guide.historySample.contains { $0.hasPrefix("Attempts, newest first") })

        try await wakeClient(stack, prefix: "/prod").unregister(deviceToken: token)
        let gone = try run()
        #expect(gone.status == 1 && (gone.stdout + gone.stderr).contains("not registered"), "\(gone)")
    }

    /// The 400 the guide says a development build meets first, on the package's settings
    /// (production alone): the responder's answer, word for word, naming the setting.
    @Test(arguments: TestEngine.real)
    func theSandboxRefusalTheGuideQuotesIsTheResponders(engine: TestEngine) throws {
        let guide = try AppGuide()
        let shipped = try Documents.text("debian/conf/liveactivity.conf")
        #expect(shipped.contains("\nAPNS_ENVIRONMENTS=production\n"), "the guide says the package enables production alone")
        #expect(guide.sandboxRefusal.contains("APNS_ENVIRONMENTS"))
        let stack = try LiveStack(with(engine, ["APNS_ENVIRONMENTS": "production"]))
        let answer = try stack.request(
            "POST", "/prod/wakeup", body: #"{"pushToken":"\#(testToken(830))","environment":"sandbox"}"#)
        #expect(answer.status == 400)
        #expect(String(decoding: answer.body, as: UTF8.self) == guide.sandboxRefusal)
        // The setting's line the guide gives enables it.
        let page = try Documents.text(AppGuide.path)
        #expect(page.contains("`APNS_ENVIRONMENTS=production,sandbox`"))
    }

    /// The `Package.swift` lines of the guide name this package's library product, by the
    /// package name its URL gives, from a version tag.
    @Test func theGuidesManifestLinesNameTheLibraryProduct() throws {
        let guide = try AppGuide()
        let url = try #require(
            guide.manifestLines.firstMatch(of: /\.package\(url: "([^"]+)", from: "(\d+\.\d+\.\d+)"\)/), "no .package(url:from:)")
        let name = String(url.output.1.split(separator: "/").last ?? "").replacingOccurrences(of: ".git", with: "")
        #expect(guide.manifestLines.contains(#".product(name: "LiveActivityWakeClient", package: "\#(name)")"#))
        let manifest = try Documents.text("Package.swift")
        #expect(manifest.contains(#".library(name: "LiveActivityWakeClient", targets: ["LiveActivityWakeClient"])"#))
        let version = try #require(
            try Documents.text("debian/changelog").firstMatch(of: /^liveactivity \((\d+\.\d+\.\d+)\)/)?.output.1)
        #expect(url.output.2 == version, "the guide's tag is the package's version")
    }
}
