import APNsHTTP2
import Foundation
import LiveActivityDomain
import LiveActivitySweep
import TestSupport
import Testing

/// The sweep's sender serving apps of two teams in one run (SPEC 6 "Several apps"), against the
/// stand-in, which binds each connection to the team and key of its first push as APNs does: a
/// connection that carried two teams would answer 403 InvalidProviderToken.
@Suite struct CurlPushSenderTests {
    let folder = TemporaryDirectory("sender-apps")

    @Test func appsOfTwoTeamsSendInOneRunAndAnAppOfTheSameKeySharesItsPool() throws {
        let first = try TestKey(in: folder, name: "First")
        let second = try TestKey(
            in: folder, name: "Second", keyID: "KEY2222222", teamID: "TEAM222222", bundleID: "org.two.app")
        // App two: another team and key; app three: the default app's team and key, its own topic.
        let apps = [
            "LIVEACTIVITY_APPS": "two,three", "APNS_KEY_ID_TWO": second.keyID, "APNS_TEAM_ID_TWO": second.teamID,
            "APNS_BUNDLE_ID_TWO": second.bundleID, "APNS_KEY_PATH_TWO": second.privateKeyPath,
            "APNS_BUNDLE_ID_THREE": "com.example.three",
        ]
        let stack = try StandInStack(key: first, environment: apps)
        var environment = stack.sweepEnvironment(database: folder.file("db.sqlite"))
        environment.merge(apps) { _, new in new }
        let settings = Settings(values: environment)
        let credentials = try SweepCredentials.ofEveryApp(settings)
        let names = try settings.apps()
        #expect(names.count == 3)

        let sender = CurlPushSender(settings: try APNsClientSettings(settings: settings))
        sender.setDeadline(Deadline(sendUntil: .now + .seconds(60), drain: .seconds(5)))
        let now = Clock().now() / 1000
        var signed: Set<SigningIdentity> = []
        for name in names {
            guard let own = credentials[name], signed.insert(own.identity).inserted else { continue }
            sender.setProviderToken(try own.issueToken(at: now), for: own.identity)
        }
        #expect(signed.count == 2)

        // 90 pushes, the apps taking turns, every kind in turn, to both environments (the
        // stand-in judges each kind's headers by Apple's table).
        var appOfToken: [String: AppName] = [:]
        for number in 0..<90 {
            let name = names[number % 3]
            let route = try #require(credentials[name]?.route)
            let token = PushToken(trusted: sampleToken(number + 1))
            appOfToken[token.hex] = name
            sender.enqueue(
                APNsPush(
                    id: number, token: token, kind: PushKind.all[number % PushKind.all.count], bundleID: route.bundleID,
                    expiration: now + 300),
                to: number < 45 ? .production : .sandbox, as: route.identity)
        }
        var answers: [Int: APNsAnswer] = [:]
        for _ in 0..<600 where !sender.isIdle {
            for completion in try sender.poll(timeoutMilliseconds: 100) { answers[completion.id] = completion.answer }
        }
        #expect(answers.count == 90)
        let refused = answers.filter { $0.value.status != 200 }
        #expect(refused.isEmpty, "no connection carried two teams: \(refused.sorted { $0.key < $1.key }.prefix(5))")

        // One pool per identity and environment: app three went over the default app's.
        #expect(sender.pools.count == 4, "\(sender.pools)")
        let received = try stack.state().received()
        #expect(received.count == 90 && received.allSatisfy { $0.status == 200 })
        for push in received {
            let name = try #require(appOfToken[push.deviceToken])
            let bundleID = try #require(credentials[name]?.bundleID)
            #expect(PushKind.all.contains { push.topic == $0.topic(forBundleID: bundleID) }, "\(push.topic ?? "-")")
        }
        var connectionsOf: [AppName: Set<String>] = [:]
        for (token, connection) in try stack.state().receivedConnections() {
            connectionsOf[appOfToken[token] ?? .defaultApp, default: []].insert(connection)
        }
        let two = try #require(AppName("two"))
        let three = try #require(AppName("three"))
        let defaults = connectionsOf[.defaultApp] ?? []
        #expect(!defaults.isEmpty && (connectionsOf[three] ?? []).isSubset(of: defaults), "\(connectionsOf)")
        #expect(defaults.isDisjoint(with: connectionsOf[two] ?? []), "\(connectionsOf)")
        #expect(defaults.count == 2, "one connection per environment for the default app's key: \(connectionsOf)")
    }

    /// A fault's scope is an app's environment (or one kind there): `cancel` takes that app's
    /// pushes (those to its bundle id) from every identity's pool, and leaves another app's and
    /// the other environment's. Nothing is sent.
    @Test func aCancelledScopeTakesItsAppsPushesFromEveryIdentitysPool() {
        let sender = CurlPushSender(settings: APNsClientSettings())
        let one = SigningIdentity(teamID: "TEAM111111", keyID: "KEY1111111")
        let two = SigningIdentity(teamID: "TEAM222222", keyID: "KEY2222222")
        for identity in [one, two] { sender.setProviderToken(ProviderToken(jwt: "a.b.c", issuedAt: 0), for: identity) }
        for number in 0..<8 {
            let push = APNsPush(
                id: number, token: PushToken(trusted: sampleToken(number + 1)), kind: number % 4 == 3 ? .widgets : .wake,
                bundleID: number % 2 == 0 ? "com.example.one" : "org.two.app", expiration: 1)
            sender.enqueue(push, to: number < 4 ? .production : .sandbox, as: number % 2 == 0 ? one : two)
        }
        #expect(sender.queuedCount == 8 && sender.pools.count == 4)
        #expect(sender.cancel(FaultScope(environment: .sandbox, kind: .widgets), bundleID: "org.two.app") == [7])
        #expect(Set(sender.cancel(FaultScope(environment: .production), bundleID: "com.example.one")) == [0, 2])
        #expect(Set(sender.withdrawQueued()) == [1, 3, 4, 5, 6])
        #expect(sender.queuedCount == 0)
    }
}
