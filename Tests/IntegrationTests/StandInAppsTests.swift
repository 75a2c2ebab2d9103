import APNsJWT
import Foundation
import LiveActivityDomain
import TestSupport
import Testing

/// The stand-in serving several apps (SPEC 6 "Several apps"), as APNs binds them (APNS.md section
/// 8): read from the same settings as the sweep, each connection bound to the team and key of its
/// first push, over real HTTP/2 connections through nginx (curl reuses one across `--next`).
@Suite("Stand-in with several apps") struct StandInAppsTests {
    let folder = TemporaryDirectory("standin-apps")

    /// One curl run, one connection: each request's status, whether it opened a connection, and
    /// the reason APNs's body gave.
    func pushes(
        _ stack: StandInStack, _ requests: [(token: ProviderToken, topic: String)]
    ) throws -> [(status: Int, connected: Bool, reason: String?)] {
        var arguments: [String] = []
        for (index, request) in requests.enumerated() {
            if index > 0 { arguments.append("--next") }
            arguments += [
                "--silent", "--http2", "--cacert", stack.certificatePath,
                "--connect-to", "api.push.apple.com:443:127.0.0.1:\(stack.port)",
                "--header", "authorization: bearer \(request.token.jwt)", "--header", "apns-topic: \(request.topic)",
                "--header", "apns-push-type: background", "--header", "apns-priority: 5",
                "--data", #"{"aps":{"content-available":1}}"#, "--write-out", "\n%{http_code} %{num_connects}\n",
                "https://api.push.apple.com/3/device/\(sampleToken(index + 1))",
            ]
        }
        let run = try runCommand(systemTool("curl") ?? "/usr/bin/curl", arguments)
        #expect(run.status == 0, "curl: \(run.stderr)")
        var answers: [(status: Int, connected: Bool, reason: String?)] = []
        var body: String?
        for line in run.stdout.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2, let status = Int(fields[0]), let connects = Int(fields[1]) {
                let reason =
                    body.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }?[
                        "reason"] as? String
                answers.append((status, connects > 0, reason))
                body = nil
            } else {
                body = String(line)
            }
        }
        return answers
    }

    @Test func eachConnectionIsOneTeamAndAnotherConnectionServesTheOther() throws {
        let first = try TestKey(in: folder, name: "First")
        let second = try TestKey(in: folder, name: "Second", keyID: "KEY2222222", teamID: "TEAM222222", bundleID: "org.two.app")
        let stack = try StandInStack(
            key: first,
            environment: [
                "LIVEACTIVITY_APPS": "two", "APNS_KEY_ID_TWO": second.keyID, "APNS_TEAM_ID_TWO": second.teamID,
                "APNS_BUNDLE_ID_TWO": second.bundleID, "APNS_KEY_PATH_TWO": second.privateKeyPath,
            ])
        let now = Clock().now() / 1000
        let firstToken = try ProviderToken(
            keyID: first.keyID, teamID: first.teamID, issuedAt: now, signer: ES256Signer(path: first.privateKeyPath))
        let secondToken = try ProviderToken(
            keyID: second.keyID, teamID: second.teamID, issuedAt: now, signer: ES256Signer(path: second.privateKeyPath))

        let shared = try pushes(
            stack, [(firstToken, first.bundleID), (secondToken, second.bundleID), (firstToken, first.bundleID)])
        #expect(shared.map(\.status) == [200, 403, 200], "\(shared)")
        #expect(shared.map(\.connected) == [true, false, false], "all three on one connection: \(shared)")
        #expect(shared[1].reason == "InvalidProviderToken")

        let own = try pushes(stack, [(secondToken, second.bundleID), (secondToken, first.bundleID)])
        #expect(own.map(\.status) == [200, 400] && own[0].connected, "\(own)")
        #expect(own[1].reason == "TopicDisallowed", "a team's token for another team's app")

        let arrivals = try stack.state().arrivals()
        #expect(arrivals.count == 5)
        let connections = arrivals.map(\.connection)
        #expect(connections[0] != nil && Set(connections[0...2]).count == 1 && connections[3] != connections[0])
        #expect(stack.log.contains("team \(second.teamID), key \(second.keyID), topic \(second.bundleID)"))
    }

    @Test(arguments: [
        (["LIVEACTIVITY_APPS": "Two"], "LIVEACTIVITY_APPS is malformed"),
        (["LIVEACTIVITY_APPS": "two"], "APNS_BUNDLE_ID_TWO is not set"),
        (["LIVEACTIVITY_APPS": "two", "APNS_BUNDLE_ID_TWO": "com.example.betterblue"], "APNS_BUNDLE_ID_TWO is malformed"),
    ])
    func aBadAppSettingIsOneLineAndExitTwo(_ settings: [String: String], _ message: String) throws {
        let key = try TestKey(in: folder)
        var environment = [
            "APNS_KEY_ID": key.keyID, "APNS_TEAM_ID": key.teamID, "APNS_BUNDLE_ID": key.bundleID,
            "APNS_KEY_PATH": key.privateKeyPath, "STANDIN_DB": folder.file("standin.sqlite"), "PATH": "/usr/bin:/bin",
        ]
        environment.merge(settings) { _, new in new }
        let run = try runCommand(
            product("liveactivity-apns-standin"), ["--socket", folder.file("standin.sock")], environment: environment)
        #expect(run.status == 2, "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.contains(message) && run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("standin.sock")))
    }
}
