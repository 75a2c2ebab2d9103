import APNsHTTP2
import APNsJWT
import Foundation
import LiveActivityCore
import TestSupport
import Testing

/// A 64-hex-digit token starting with `prefix` (which picks nginx's scripted answer) and ending
/// with `number`, so every push has its own token.
func testToken(_ prefix: String = "aa", _ number: Int = 0) -> PushToken {
    let tail = String(number, radix: 16)
    let fill = String(repeating: "a", count: 64 - prefix.count - tail.count)
    return PushToken(trusted: prefix + fill + tail)
}

let placeholderToken = ProviderToken(jwt: "eyJhbGciOiJFUzI1NiJ9.e30.c2ln", issuedAt: 1_700_000_000)

/// Every completion of `client`, driven with `next()` until nothing is left.
func drain(_ client: APNsClient) throws -> [Int: APNsAnswer] {
    var outcomes: [Int: APNsAnswer] = [:]
    while let completion = try client.next() {
        #expect(outcomes[completion.id] == nil, "push \(completion.id) finished twice")
        outcomes[completion.id] = completion.answer
    }
    return outcomes
}

@Suite struct APNsClientTests {
    @Test func theExactHeadersAndPayloadArriveOverHTTP2() throws {
        let server = try NginxAPNsFixture()
        let signer = try ES256Signer(pem: KeyFixtures.p256PrivateKey())
        let jwt = try ProviderToken(keyID: "KEY1234567", teamID: "TEAM123456", issuedAt: 1_700_000_000, signer: signer)
        var options = APNsClientOptions(baseURL: server.baseURL, topic: "de.example.betterblue")
        options.caFile = server.certificatePath
        let client = try APNsClient(options: options, providerToken: jwt)
        client.submit(APNsPush(id: 7, token: testToken("ab", 1), expiration: 1_700_000_300))

        let outcomes = try drain(client)
        #expect(outcomes == [7: .answered(APNsResponse(status: 200, apnsID: NginxAPNsFixture.apnsID))])
        let line = try #require(server.accessLog(atLeast: 1).first)
        #expect(line.serverProtocol == "HTTP/2.0")
        #expect(line.method == "POST")
        #expect(line.uri == "/3/device/" + testToken("ab", 1).hex)
        #expect(line.authorization == "bearer " + jwt.jwt)
        #expect(line.topic == "de.example.betterblue")
        #expect(line.pushType == "background")
        #expect(line.priority == "5")
        #expect(line.expiration == "1700000300")
        #expect(line.contentType == "application/json")
        #expect(line.body == #"{"aps":{"content-available":1},"liveActivityWakeup":true}"#)
    }

    @Test func fiveHundredPushesShareOneConnection() throws {
        let server = try NginxAPNsFixture()
        var options = APNsClientOptions(environment: .sandbox, topic: "t", baseURLOverride: server.baseURL)
        options.caFile = server.certificatePath
        let client = try APNsClient(options: options, providerToken: placeholderToken)
        client.submit(contentsOf: (0..<500).map { APNsPush(id: $0, token: testToken("aa", $0), expiration: 1) })

        let outcomes = try drain(client)
        #expect(outcomes.count == 500)
        #expect(outcomes.values.allSatisfy { $0.response?.status == 200 })
        let log = server.accessLog(atLeast: 500)
        #expect(log.count == 500)
        #expect(Set(log.map(\.connection)).count == 1)
        #expect(log.allSatisfy { $0.serverProtocol == "HTTP/2.0" })
    }

    @Test func errorAnswersAreParsed() throws {
        let server = try NginxAPNsFixture()
        var options = APNsClientOptions(baseURL: server.baseURL, topic: "t")
        options.caFile = server.certificatePath
        let client = try APNsClient(options: options, providerToken: placeholderToken)
        for (id, prefix) in ["0400", "0403", "0410", "0429", "0500"].enumerated() {
            client.submit(APNsPush(id: id, token: testToken(prefix), expiration: 1))
        }
        let id = NginxAPNsFixture.apnsID
        let outcomes = try drain(client)
        #expect(outcomes[0] == .answered(APNsResponse(status: 400, reason: "BadDeviceToken", apnsID: id)))
        #expect(outcomes[1] == .answered(APNsResponse(status: 403, reason: "ExpiredProviderToken", apnsID: id)))
        #expect(
            outcomes[2]
                == .answered(
                    APNsResponse(
                        status: 410, reason: "Unregistered", timestamp: NginxAPNsFixture.unregisteredTimestamp, apnsID: id)))
        #expect(outcomes[3] == .answered(APNsResponse(status: 429, reason: "TooManyRequests", apnsID: id)))
        #expect(outcomes[4] == .answered(APNsResponse(status: 500, reason: "InternalServerError", apnsID: id)))
    }

    @Test func aRenewedTokenIsSentWithTheResubmittedPush() throws {
        let server = try NginxAPNsFixture()
        var options = APNsClientOptions(baseURL: server.baseURL, topic: "t")
        options.caFile = server.certificatePath
        let client = try APNsClient(options: options, providerToken: placeholderToken)
        client.submit(APNsPush(id: 1, token: testToken("0403"), expiration: 1))
        client.submit(contentsOf: (10..<30).map { APNsPush(id: $0, token: testToken("aa", $0), expiration: 1) })
        let renewed = ProviderToken(jwt: "renewed.token.jwt", issuedAt: 1_700_003_000)
        var retried = false
        while let completion = try client.next() {
            if completion.answer.response?.reason == "ExpiredProviderToken" {
                #expect(!retried)
                retried = true
                client.providerToken = renewed
                client.submit(APNsPush(id: 2, token: testToken("bb"), expiration: 1), first: true)
            }
        }
        #expect(retried)
        let log = server.accessLog(atLeast: 22)
        let line = try #require(log.first { $0.uri.hasSuffix(testToken("bb").hex) })
        #expect(line.authorization == "bearer renewed.token.jwt")
        #expect(log.filter { $0.authorization == "bearer renewed.token.jwt" }.count == 1)
        #expect(Set(log.map(\.connection)).count == 1)
    }

    @Test func anUntrustedCertificateIsATransportFailure() throws {
        let server = try NginxAPNsFixture()
        let client = try APNsClient(
            options: APNsClientOptions(baseURL: server.baseURL, topic: "t"), providerToken: placeholderToken)
        client.submit(contentsOf: (0..<3).map { APNsPush(id: $0, token: testToken("aa", $0), expiration: 1) })
        let outcomes = try drain(client)
        #expect(outcomes.count == 3)
        for outcome in outcomes.values {
            guard case .failed(let code) = outcome else {
                Issue.record("expected a transport failure, got \(outcome)")
                continue
            }
            #expect(code == .peerFailedVerification)
            #expect(code.description.contains("certificate"))
        }
        #expect(server.accessLog.isEmpty)
    }

    @Test func connectionRefusedFailsEveryPushQuickly() throws {
        let client = try APNsClient(
            options: APNsClientOptions(baseURL: "https://127.0.0.1:\(freePort())", topic: "t"),
            providerToken: placeholderToken)
        client.submit(contentsOf: (0..<200).map { APNsPush(id: $0, token: testToken("aa", $0), expiration: 1) })
        let started = Date()
        let outcomes = try drain(client)
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(outcomes.count == 200)
        #expect(outcomes.values.allSatisfy { $0 == .failed(.couldNotConnect) })
    }

    @Test func aServerThatNeverAnswersHitsTheTimeout() throws {
        let silent = try SilentListener()
        var options = APNsClientOptions(baseURL: "https://127.0.0.1:\(silent.port)", topic: "t")
        options.requestTimeout = 1
        let client = try APNsClient(options: options, providerToken: placeholderToken)
        client.submit(contentsOf: (0..<20).map { APNsPush(id: $0, token: testToken("aa", $0), expiration: 1) })
        let started = Date()
        let outcomes = try drain(client)
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed >= 0.9 && elapsed < 5, "took \(elapsed) s")
        #expect(outcomes.count == 20)
        #expect(outcomes.values.allSatisfy { $0.isTimeout })
    }

    @Test func aStreamThatIsNeverAnsweredTimesOutWhileTheOthersSucceed() throws {
        let server = try NginxAPNsFixture()
        var options = APNsClientOptions(baseURL: server.baseURL, topic: "t")
        options.caFile = server.certificatePath
        options.requestTimeout = 1
        let client = try APNsClient(options: options, providerToken: placeholderToken)
        client.submit(APNsPush(id: 0, token: testToken("5110"), expiration: 1))
        client.submit(contentsOf: (1...10).map { APNsPush(id: $0, token: testToken("aa", $0), expiration: 1) })
        let outcomes = try drain(client)
        #expect(outcomes[0]?.isTimeout == true)
        #expect((1...10).allSatisfy { outcomes[$0]?.response?.status == 200 })
    }

    @Test func cancellingStopsQueuedAndInFlightPushes() throws {
        let server = try NginxAPNsFixture()
        var options = APNsClientOptions(baseURL: server.baseURL, topic: "t")
        options.caFile = server.certificatePath
        options.maxInFlight = 20
        let client = try APNsClient(options: options, providerToken: placeholderToken)
        client.submit(contentsOf: (0..<200).map { APNsPush(id: $0, token: testToken("5110", $0), expiration: 1) })
        #expect(try client.poll(timeoutMilliseconds: 300).isEmpty)
        #expect(client.inFlightCount == 20)
        #expect(client.queuedCount == 180)

        let cancelled = client.cancelAll()
        #expect(Set(cancelled) == Set(0..<200))
        #expect(client.isIdle)
        #expect(try client.next() == nil)
        // No more than the window ever reached the server (nginx logs each reset stream as 499).
        #expect(server.accessLog(atLeast: 21, timeout: 1).count <= 20)

        // The client stays usable on the same connection.
        client.submit(APNsPush(id: 500, token: testToken("cc"), expiration: 1))
        #expect(try drain(client)[500]?.response?.status == 200)
    }
}

@Suite struct APNsClientOptionsTests {
    @Test func environmentsPickApplesHostsUnlessOverridden() {
        #expect(APNsClientOptions(environment: .production, topic: "t").baseURL == "https://api.push.apple.com")
        #expect(APNsClientOptions(environment: .sandbox, topic: "t").baseURL == "https://api.sandbox.push.apple.com")
        #expect(
            APNsClientOptions(environment: .sandbox, topic: "t", baseURLOverride: "https://127.0.0.1:8443/").baseURL
                == "https://127.0.0.1:8443")
    }

    @Test func errorBodiesParseReasonAndTimestamp() {
        let gone = APNsResponse(
            status: 410, body: Array(#"{"reason":"ExpiredToken","timestamp":1700000000999}"#.utf8), apnsID: nil)
        #expect(gone.reason == "ExpiredToken" && gone.timestamp == 1_700_000_000_999)
        #expect(APNsResponse(status: 200, body: [], apnsID: "x") == APNsResponse(status: 200, apnsID: "x"))
        #expect(APNsResponse(status: 502, body: Array("<html>bad gateway</html>".utf8), apnsID: nil).reason == nil)
    }
}
