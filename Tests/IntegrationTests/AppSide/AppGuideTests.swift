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
    /// on this one by path, as an app's does, with a driver that calls the guide's
    /// `LiveActivityWakeups` per step.
    @Test func theGuidesSwiftCompilesInAnAppsPackageAndRegistersAcksAndUnregisters() throws {
        let guide = try AppGuide()
        let stack = try LiveStack()
        let folder = TemporaryDirectory("app-guide")
        let sources = folder.file("AppGuide/Sources/AppGuide")
        try FileManager.default.createDirectory(atPath: sources, withIntermediateDirectories: true)
        let identity = URL(fileURLWithPath: packageRoot).lastPathComponent.lowercased()
        _ = try folder.write(
            "AppGuide/Package.swift",
            """
            // swift-tools-version:6.0
            import PackageDescription
            let package = Package(
                name: "AppGuide",
                platforms: [.iOS(.v16), .macOS(.v13)],
                dependencies: [.package(path: "\(packageRoot)")],
                targets: [
                    .executableTarget(
                        name: "AppGuide", dependencies: [.product(name: "LiveActivityWakeClient", package: "\(identity)")])
                ],
                swiftLanguageModes: [.v6]
            )

            """)
        #expect(guide.librarySwift.count >= 4, "the client, the app delegate, the activity, the widget")
        let client = try #require(
            guide.librarySwift.firstIndex { $0.contains(AppGuide.exampleBackend) }, "no block names the backend")
        for (index, block) in guide.librarySwift.enumerated() {
            let text = index == client ? try pointingAt("http://127.0.0.1:\(stack.port)", block) : block
            _ = try folder.write("AppGuide/Sources/AppGuide/Guide\(index + 1).swift", text)
        }
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
        func step(_ name: String) throws -> CommandResult {
            try runCommand(app, [name, token.hex, widget.hex], environment: ["HOME": folder.path], timeout: 120)
        }
        let started = try step("start")
        #expect(
            started.status == 0
                && started.stdout == "interval=900 widgetInterval=3600 paused=none\n",
            "\(started)")
        let row = try #require(try storedRegistration(token.hex, in: stack))
        #expect(row.requestedInterval == 900 && row.environment == .sandbox, "a debug build registers in the sandbox")
        let widgets = try #require(row.target(.widgets), "the widget extension's token is a target of its own")
        #expect(widgets.token.hex == widget.hex && widgets.requestedInterval == 3600)
        let woke = try step("wake")
        #expect(woke.status == 0 && woke.stdout == "refreshing\nwake=true\n", "\(woke)")
        #expect(try ackWaits(on: token.hex, in: stack), "the ack reached the backend")
        // No activity runs any more: the ack says so, and nothing is refreshed.
        let gone = try step("wake-none")
        #expect(gone.status == 0 && gone.stdout == "wake=false\n", "\(gone)")
        let ended = try step("end")
        #expect(ended.status == 0 && ended.stdout == "ended\n", "\(ended)")
        #expect(try stack.database.count() == 0)
        #expect(loggedRequests(stack, "/prod/wakeup", status: 200, expected: 1) == 1)
        #expect(loggedRequests(stack, "/prod/wakeup/ack", status: 200, expected: 2) == 2)
        #expect(loggedRequests(stack, "/prod/wakeup/unregister", status: 200, expected: 1) == 1)
    }

    /// Calls the guide's `LiveActivityWakeups`: `start`, `wake`, `wake-none` (no activity runs)
    /// or `end`, the device's and the widget's token. The device state is what an iPhone with one
    /// activity running would read (the guide's reading is UIKit's and ActivityKit's).
    static let libraryDriver = """
        import Foundation
        import LiveActivityWakeClient

        let arguments = CommandLine.arguments
        guard arguments.count == 4, let device = DeviceToken(hex: arguments[2]) else { fatalError("usage: step device widget") }
        LiveActivityWakeups.deviceToken = device
        LiveActivityWakeups.widgetToken = DeviceToken(hex: arguments[3])
        let running = DeviceState(activities: 1, backgroundRefresh: .available, lowPower: false)
        switch arguments[1] {
        case "start":
            let applied = try await LiveActivityWakeups.activityStarted(every: 900, state: running)
            print("interval=\\(applied?.interval.map(String.init) ?? "none") widgetInterval=\\(applied?.widgetInterval.map(String.init) ?? "none") paused=\\(applied?.paused?.rawValue ?? "none")")
        case "wake", "wake-none":
            let state = arguments[1] == "wake" ? running : DeviceState(activities: 0)
            let changed = await LiveActivityWakeups.handleWake(state: state) {
                print("refreshing")
                return true
            }
            print("wake=\\(changed.map(String.init) ?? "failed")")
        default:
            await LiveActivityWakeups.activityEnded()
            print("ended")
        }

        """

    /// The guide's plain URLSession block and a driver, one file built by swiftc, as an app makes
    /// its requests without the library: it registers, acks, unregisters and reads a 400.
    @Test func theGuidesPlainURLSessionClientBuiltBySwiftcRegistersAcksAndUnregisters() throws {
        let guide = try AppGuide()
        let stack = try LiveStack()
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
    @Test func everyCurlLineOfTheGuideRunsAgainstTheResponder() throws {
        let guide = try AppGuide()
        let stack = try LiveStack()
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

    /// `liveactivity-sweep history` as the guide's operator runs it, for the guide's token
    /// registered as its curl block does: the first lines are the guide's sample's.
    @Test func theHistoryLineShowsTheRegistrationAsTheGuidesSample() async throws {
        let guide = try AppGuide()
        let stack = try LiveStack()
        let token = try #require(DeviceToken(hex: try guide.shellVariable("TOKEN")))
        let words = guide.historyLine.split(separator: " ").map(String.init)
        #expect(words.count == 3 && words[0] == "liveactivity-sweep" && words[1] == "history" && token.hex.hasPrefix(words[2]))
        try await wakeClient(stack, prefix: "/prod", environment: .sandbox).register(deviceToken: token, interval: 900)

        let environment = ["LIVEACTIVITY_DB": stack.database.setting, "PATH": "/usr/bin:/bin"]
        let story = try runCommand(product(words[0]), Array(words.dropFirst()), environment: environment)
        #expect(story.status == 0, "\(story.stderr)")
        let lines = story.stdout.components(separatedBy: "\n")
        #expect(Array(lines.prefix(2)) == Array(guide.historySample.prefix(2)), "\(story.stdout)")
        #expect(lines.contains("Attempts: none yet (pushed at the next sweep)"), "\(story.stdout)")
        #expect(guide.historySample.contains { $0.hasPrefix("Attempts, newest first") })

        try await wakeClient(stack, prefix: "/prod").unregister(deviceToken: token)
        let gone = try runCommand(product(words[0]), Array(words.dropFirst()), environment: environment)
        #expect(gone.status == 1 && (gone.stdout + gone.stderr).contains("not registered"), "\(gone)")
    }
}
