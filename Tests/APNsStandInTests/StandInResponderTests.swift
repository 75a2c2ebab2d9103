import APNsJWT
import APNsStandIn
import FastCGIWire
import Foundation
import TestSupport
import Testing

@testable import LiveActivityDomain

/// The stand-in judges pushes as APNs does; each check is exercised directly here, and over real
/// HTTP/2 + TLS in the integration suite.
@Suite struct StandInResponderTests {
    let folder = TemporaryDirectory("standin")
    let key: TestKey
    let signer: ES256Signer
    let responder: StandInResponder
    let configuration: StandInConfiguration
    let token = sampleToken(42)
    /// The default token's issue time, fixed for the test: a token issued a second later is a new
    /// token, which the stand-in (as APNs) answers with 429 within 20 minutes of the first.
    let issuedAt = Clock().now() / 1000

    init() throws {
        key = try TestKey(in: folder)
        signer = try ES256Signer(path: key.privateKeyPath)
        configuration = StandInConfiguration(
            keyID: key.keyID, teamID: key.teamID, bundleID: key.bundleID,
            publicKeyPEM: try signer.publicKeyPEM(), databasePath: folder.file("standin.sqlite"))
        responder = try StandInResponder(configuration: configuration, gate: WriteGate(), log: { _ in })
    }

    var nowSeconds: Int64 { Clock().now() / 1000 }

    func jwt(issuedAt: Int64? = nil, keyID: String? = nil, teamID: String? = nil, signer: ES256Signer? = nil) throws -> String {
        try ProviderToken(
            keyID: keyID ?? key.keyID, teamID: teamID ?? key.teamID, issuedAt: issuedAt ?? self.issuedAt,
            signer: signer ?? self.signer
        ).jwt
    }

    func push(
        _ token: String? = nil, method: String = "POST", authorization: String?? = nil, headers: [String: String?] = [:],
        body: String = #"{"aps":{"content-available":1},"liveActivityWakeup":true}"#,
        environment: APNsEnvironment = .production, responder: StandInResponder? = nil, connection: String? = nil
    ) throws -> HTTPResponse {
        var all: [String: String] = [
            "apns-topic": key.bundleID, "apns-push-type": "background", "apns-priority": "5",
            "apns-expiration": "\(nowSeconds + 300)",
        ]
        switch authorization {
        case .none: all["authorization"] = "bearer " + (try jwt())
        case .some(.none): break
        case .some(.some(let value)): all["authorization"] = value
        }
        for (name, value) in headers { all[name] = value }
        return (responder ?? self.responder).respond(
            to: StandInRequest(
                method: method, path: "/3/device/" + (token ?? self.token), headers: all, body: Array(body.utf8),
                connection: connection, environment: environment))
    }

    func reason(_ response: HTTPResponse) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])?["reason"] as? String
    }

    func expect(_ response: HTTPResponse, _ status: Int, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == status, sourceLocation: sourceLocation)
        #expect(self.reason(response) == reason, sourceLocation: sourceLocation)
        #expect(response.header("apns-id") != nil, sourceLocation: sourceLocation)
    }

    @Test func aCorrectBackgroundPushIsAcceptedAndRecorded() throws {
        let response = try push(headers: ["apns-id": "123e4567-e89b-12d3-a456-426614174000"])
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(response.header("apns-id") == "123e4567-e89b-12d3-a456-426614174000")
        let record = try StandInState(path: configuration.databasePath).received(token: token)
        #expect(record.count == 1)
        #expect(record.first?.pushType == "background")
        #expect(record.first?.priority == "5")
        #expect(record.first?.status == 200)
    }

    /// WidgetKit pushes as APNs judges them (APNS.md section 8): the widgets topic with the
    /// widgets type and the content-changed payload; either of the two on its own is a token not
    /// for that topic; an unknown type is InvalidPushType; another topic is disallowed.
    @Test func widgetsPushesAreJudgedAsAPNsJudgesThem() throws {
        let widgets = ["apns-topic": key.bundleID + ".push-type.widgets", "apns-push-type": "widgets"]
        let body = #"{"aps":{"content-changed":true}}"#
        let noPriority: [String: String?] = ["apns-priority": nil, "apns-expiration": nil]
        #expect(try push(headers: widgets.mapValues { $0 }.merging(noPriority) { $1 }, body: body).status == 200)
        expect(try push(headers: ["apns-push-type": "widgets"], body: body), 400, "DeviceTokenNotForTopic")
        expect(try push(headers: ["apns-topic": key.bundleID + ".push-type.widgets"]), 400, "DeviceTokenNotForTopic")
        expect(try push(headers: ["apns-topic": key.bundleID + ".push-type.gadgets"]), 400, "TopicDisallowed")
        expect(try push(headers: ["apns-push-type": "gadgets"]), 400, "InvalidPushType")
        expect(try push(headers: widgets.mapValues { $0 }, body: #"{"aps":{"content-available":1}}"#), 400, "BadPayload")
        expect(
            try push(headers: widgets.mapValues { $0 }, body: #"{"aps":{"content-changed":true,"alert":"x"}}"#), 400, "BadPayload"
        )
        // Priority 10 is an error for background only (Apple restricts no other type).
        #expect(try push(headers: widgets.mapValues { $0 }.merging(["apns-priority": "10"]) { $1 }, body: body).status == 200)
        expect(try push(headers: ["apns-priority": "10"]), 400, "BadPriority")
    }

    @Test func anAPNsIDIsGeneratedWhenNoneIsSent() throws {
        let id = try #require(try push().header("apns-id"))
        #expect(id.count == 36 && id == id.lowercased())
    }

    @Test func providerTokenFaultsAre403() throws {
        expect(try push(authorization: .some(nil)), 403, "MissingProviderToken")
        expect(try push(authorization: "bearer not.a.jwt"), 403, "InvalidProviderToken")
        expect(try push(authorization: "bearer " + (try jwt(keyID: "OTHERKEYID"))), 403, "InvalidProviderToken")
        expect(try push(authorization: "bearer " + (try jwt(teamID: "OTHERTEAM1"))), 403, "InvalidProviderToken")
        let otherKey = try TestKey(in: folder, name: "Other")
        expect(
            try push(authorization: "bearer " + (try jwt(signer: try ES256Signer(path: otherKey.privateKeyPath)))), 403,
            "InvalidProviderToken")
        expect(try push(authorization: "bearer " + (try jwt(issuedAt: nowSeconds - 3601))), 403, "ExpiredProviderToken")
    }

    @Test func refreshingTheTokenWithinTwentyMinutesIs429() throws {
        #expect(try push(authorization: "bearer " + (try jwt(issuedAt: nowSeconds - 600))).status == 200)
        #expect(
            try push(authorization: "bearer " + (try jwt(issuedAt: nowSeconds - 600))).status == 200,
            "the same token again is fine")
        expect(try push(authorization: "bearer " + (try jwt(issuedAt: nowSeconds))), 429, "TooManyProviderTokenUpdates")
    }

    @Test func afterExpiredProviderTokenARenewalIsAllowedAtOnce() throws {
        try StandInState(path: configuration.databasePath).script(token: token, status: 403, reason: "ExpiredProviderToken")
        expect(try push(authorization: "bearer " + (try jwt(issuedAt: nowSeconds - 60))), 403, "ExpiredProviderToken")
        #expect(try push(authorization: "bearer " + (try jwt(issuedAt: nowSeconds))).status == 200)
    }

    @Test func headerFaultsAreNamedAsAPNsNamesThem() throws {
        expect(try push(headers: ["apns-topic": nil]), 400, "MissingTopic")
        expect(try push(headers: ["apns-topic": "com.example.other"]), 400, "TopicDisallowed")
        expect(try push(headers: ["apns-push-type": "wakeup"]), 400, "InvalidPushType")
        expect(try push(headers: ["apns-priority": "10"]), 400, "BadPriority")
        expect(try push(headers: ["apns-priority": "7"]), 400, "BadPriority")
        expect(try push(headers: ["apns-expiration": "soon"]), 400, "BadExpirationDate")
        expect(try push(headers: ["apns-id": "NOT-A-UUID"]), 400, "BadMessageId")
        expect(try push(method: "GET"), 405, "MethodNotAllowed")
    }

    @Test func deviceTokenAndPayloadFaults() throws {
        expect(try push("xyz"), 400, "BadDeviceToken")
        expect(try push(String(repeating: "A", count: 64)), 400, "BadDeviceToken")
        expect(try push(body: ""), 400, "PayloadEmpty")
        expect(
            try push(body: #"{"aps":{"content-available":1},"pad":""# + String(repeating: "x", count: 4100) + "\"}"), 413,
            "PayloadTooLarge")
        expect(try push(body: #"{"aps":{"alert":"hi","content-available":1}}"#), 400, "BadPayload")
        expect(try push(body: "[]"), 400, "BadPayload")
    }

    @Test func scriptedAnswersComeOnceEachInOrder() throws {
        let state = try StandInState(path: configuration.databasePath)
        try state.script(token: token, status: 410, reason: "Unregistered", timestamp: 1234)
        try state.script(token: token, status: 503, reason: "ServiceUnavailable")
        let gone = try push()
        expect(gone, 410, "Unregistered")
        #expect(((try JSONSerialization.jsonObject(with: Data(gone.body))) as? [String: Any])?["timestamp"] as? Int == 1234)
        expect(try push(), 503, "ServiceUnavailable")
        #expect(try push().status == 200)
        try state.script(token: "*", status: 500, reason: "InternalServerError", count: 2)
        expect(try push(sampleToken(7)), 500, "InternalServerError")
        #expect(try state.received().map(\.status) == [410, 503, 200, 500])
    }

    @Test func aKeyRestrictedToOneEnvironmentIsRefusedByTheOther() throws {
        var restricted = configuration
        restricted.apps[0].keyEnvironments = [.production]
        let standIn = try StandInResponder(configuration: restricted, gate: WriteGate(), log: { _ in })
        let bearer: String?? = "bearer " + (try jwt())
        #expect(try push(authorization: bearer, environment: .production, responder: standIn).status == 200)
        expect(try push(authorization: bearer, environment: .sandbox, responder: standIn), 403, "BadEnvironmentKeyInToken")
        let received = try StandInState(path: configuration.databasePath).received()
        #expect(received.map(\.environment) == [.production, .sandbox])
    }

    /// Several apps (APNS.md section 8): a key signs for every app of its team; a connection is
    /// bound to the team and key of its first push, so a second team on it is InvalidProviderToken
    /// and another key UnrelatedKeyIdInToken; a team's token for another team's app is refused.
    @Test func eachConnectionIsOneTeamAndKeyAndAKeySignsForItsTeamsApps() throws {
        let otherTeam = try TestKey(in: folder, name: "Other", keyID: "KEY2222222", teamID: "TEAM222222", bundleID: "org.two")
        let secondKey = try TestKey(in: folder, name: "Second", keyID: "KEY3333333", teamID: key.teamID, bundleID: "com.three")
        let otherSigner = try ES256Signer(path: otherTeam.privateKeyPath)
        let secondSigner = try ES256Signer(path: secondKey.privateKeyPath)
        let apps = [
            StandInConfiguration.App(
                keyID: key.keyID, teamID: key.teamID, bundleID: key.bundleID, publicKeyPEM: try signer.publicKeyPEM()),
            StandInConfiguration.App(
                name: try #require(AppName("two")), keyID: otherTeam.keyID, teamID: otherTeam.teamID,
                bundleID: otherTeam.bundleID, publicKeyPEM: try otherSigner.publicKeyPEM()),
            StandInConfiguration.App(
                name: try #require(AppName("shared")), keyID: key.keyID, teamID: key.teamID, bundleID: "com.example.shared",
                publicKeyPEM: try signer.publicKeyPEM()),
            StandInConfiguration.App(
                name: try #require(AppName("three")), keyID: secondKey.keyID, teamID: key.teamID,
                bundleID: secondKey.bundleID, publicKeyPEM: try secondSigner.publicKeyPEM()),
        ]
        let standIn = try StandInResponder(
            configuration: StandInConfiguration(apps: apps, databasePath: configuration.databasePath), gate: WriteGate(),
            log: { _ in })
        let first: String?? = "bearer " + (try jwt())
        let team2: String?? = "bearer " + (try jwt(keyID: otherTeam.keyID, teamID: otherTeam.teamID, signer: otherSigner))
        let key3: String?? = "bearer " + (try jwt(keyID: secondKey.keyID, signer: secondSigner))
        func send(_ authorization: String??, topic: String, over connection: String?) throws -> HTTPResponse {
            try push(authorization: authorization, headers: ["apns-topic": topic], responder: standIn, connection: connection)
        }

        #expect(try send(first, topic: key.bundleID, over: "1").status == 200)
        #expect(try send(first, topic: "com.example.shared", over: "1").status == 200, "one key, two apps of its team")
        expect(try send(team2, topic: otherTeam.bundleID, over: "1"), 403, "InvalidProviderToken")
        expect(try send(key3, topic: secondKey.bundleID, over: "1"), 403, "UnrelatedKeyIdInToken")
        #expect(try send(team2, topic: otherTeam.bundleID, over: "2").status == 200, "each connection its own team")
        expect(try send(team2, topic: key.bundleID, over: "2"), 400, "TopicDisallowed")
        #expect(try send(key3, topic: secondKey.bundleID, over: "3").status == 200)
        #expect(try send(key3, topic: "com.example.shared", over: "3").status == 200, "a team's second key signs for it too")
        #expect(try send(first, topic: key.bundleID, over: "1").status == 200, "the binding stays the first push's")

        // A token naming a served team with another team's key, or a key id it does not have.
        let forged: String?? = "bearer " + (try jwt(teamID: otherTeam.teamID))
        expect(try send(forged, topic: otherTeam.bundleID, over: "4"), 403, "InvalidProviderToken")
        let unknownKey: String?? = "bearer " + (try jwt(keyID: "KEY9999999"))
        expect(try send(unknownKey, topic: key.bundleID, over: "5"), 403, "InvalidProviderToken")

        // Another worker of the same stand-in knows the binding too.
        let otherWorker = try StandInResponder(
            configuration: StandInConfiguration(apps: apps, databasePath: configuration.databasePath), gate: WriteGate(),
            log: { _ in })
        let elsewhere = try push(
            authorization: team2, headers: ["apns-topic": otherTeam.bundleID], responder: otherWorker, connection: "1")
        expect(elsewhere, 403, "InvalidProviderToken")

        // A stand-in started anew forgets which connection was whose (nginx numbers them anew).
        try StandInState(path: configuration.databasePath).forgetConnections()
        let restarted = try StandInResponder(
            configuration: StandInConfiguration(apps: apps, databasePath: configuration.databasePath), gate: WriteGate(),
            log: { _ in })
        let again = try push(
            authorization: team2, headers: ["apns-topic": otherTeam.bundleID], responder: restarted, connection: "1")
        #expect(again.status == 200)
    }

    @Test func answersAreScriptedPerEnvironmentToo() throws {
        let state = try StandInState(path: configuration.databasePath)
        try state.script(token: token, environment: .sandbox, status: 400, reason: "BadDeviceToken")
        try state.script(tokens: [sampleToken(1), sampleToken(2)], environment: .production, status: 410, reason: "Unregistered")
        // One provider token throughout, so the refresh rule stays out of it.
        let bearer: String?? = "bearer " + (try jwt())
        func send(_ token: String, _ environment: APNsEnvironment) throws -> HTTPResponse {
            try push(token, authorization: bearer, environment: environment)
        }
        #expect(try send(token, .production).status == 200, "the sandbox answer waits for a sandbox push")
        expect(try send(token, .sandbox), 400, "BadDeviceToken")
        #expect(try send(sampleToken(1), .sandbox).status == 200)
        expect(try send(sampleToken(2), .production), 410, "Unregistered")
    }

    @Test func theEnvironmentComesFromNginxsMapOfTheHost() {
        let request = StandInRequest(
            method: "POST", path: "/3/device/00", body: [], parameters: ["APNS_ENVIRONMENT": "sandbox", "HTTP_APNS_TOPIC": "t"])
        #expect(request.environment == .sandbox && request.headers["apns-topic"] == "t")
        #expect(StandInRequest(method: "POST", path: "/", body: [], parameters: [:]).environment == .production)
    }
}
