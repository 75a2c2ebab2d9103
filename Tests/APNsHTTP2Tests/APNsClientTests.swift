import Foundation
import LiveActivityDomain
import TestSupport
import Testing

@testable import APNsHTTP2

/// The client against the stand-in over real HTTP/2 + TLS: what goes over the wire, what comes
/// back, and how it copes with servers that fail.
@Suite struct APNsClientTests {
    @Test func theExactHeadersAndPayloadArriveOverHTTP2() throws {
        let standIn = try StandInStack()
        let jwt = try standIn.providerToken()
        let client = try APNsClient(options: standIn.clientOptions(), providerToken: jwt)
        client.submit(APNsPush(id: 7, token: token(1), bundleID: bundleID, expiration: 1_700_000_300))

        let answers = try drain(client)
        let received = try #require(try standIn.state().received().first)
        #expect(answers == [7: .answered(APNsResponse(status: 200, apnsID: received.apnsID))])
        #expect(received.serverProtocol == "HTTP/2.0")
        #expect(received.method == "POST")
        #expect(received.deviceToken == token(1).hex)
        #expect(received.authorization == "bearer " + jwt.jwt)
        #expect(received.topic == standIn.key.bundleID)
        #expect(received.pushType == "background")
        #expect(received.priority == "5")
        #expect(received.expiration == "1700000300")
        #expect(received.payload == #"{"aps":{"content-available":1},"liveActivityWakeup":true}"#)
        #expect(try standIn.state().arrivals().first?.contentType == "application/json")
    }

    /// Each kind's request as Apple documents its push type (APNS.md sections 2, 3 and 8),
    /// written out rather than read from `PushKind`: a kind without a row fails until its row is
    /// copied from Apple's page.
    static let applesRequests: [String: AppleRequest] = [
        "wake": ("", "background", "5", true, #"{"aps":{"content-available":1},"liveActivityWakeup":true}"#),
        "widgets": (".push-type.widgets", "widgets", nil, false, #"{"aps":{"content-changed":true}}"#),
    ]
    typealias AppleRequest = (topicSuffix: String, pushType: String, priority: String?, expires: Bool, payload: String)

    /// A push of each kind (SPEC 5.5, issue 31): its own push type and topic, its priority and
    /// expiration or none (a widgets push), its payload; on the same connection as the wakes
    /// around it.
    @Test(arguments: PushKind.all)
    func eachKindsPushCarriesItsPushTypesHeadersAndPayload(kind: PushKind) throws {
        let expected = try #require(Self.applesRequests[kind.name], "Apple's request of \(kind)")
        let standIn = try StandInStack()
        let jwt = try standIn.providerToken()
        let client = try APNsClient(options: standIn.clientOptions(), providerToken: jwt)
        client.submit(contentsOf: [
            APNsPush(id: 1, token: token(1), bundleID: bundleID, expiration: 1_700_000_300),
            APNsPush(id: 2, token: token(2), kind: kind, bundleID: bundleID, expiration: 1_700_000_300),
            APNsPush(id: 3, token: token(3), bundleID: bundleID, expiration: 1_700_000_360),
        ])
        let answers = try drain(client)
        #expect(answers.count == 3 && answers.values.allSatisfy { $0.status == 200 }, "\(answers)")
        let push = try #require(try standIn.state().received(token: token(2).hex).first)
        #expect(push.topic == standIn.key.bundleID + expected.topicSuffix)
        #expect(push.pushType == expected.pushType)
        #expect(push.priority == expected.priority && push.expiration == (expected.expires ? "1700000300" : nil))
        #expect(push.payload == expected.payload)
        #expect(push.authorization == "bearer " + jwt.jwt)
        let wakes = try [1, 3].map { try #require(try standIn.state().received(token: token($0).hex).first) }
        #expect(wakes.map(\.pushType) == ["background", "background"] && wakes.map(\.priority) == ["5", "5"])
        #expect(wakes.map(\.expiration) == ["1700000300", "1700000360"] && wakes.allSatisfy { $0.topic == standIn.key.bundleID })
        let connections = try standIn.state().arrivals().map(\.connection)
        #expect(Set(connections).count == 1, "one connection for every kind")
    }

    /// Each push names its app (SPEC 6 "Several apps"): one client, one token of the team, sends
    /// for two of its apps over one connection, each push under its own topic.
    @Test func eachPushNamesItsOwnAppsTopic() throws {
        let standIn = try StandInStack(environment: ["LIVEACTIVITY_APPS": "two", "APNS_BUNDLE_ID_TWO": "com.example.two"])
        let client = try APNsClient(options: standIn.clientOptions(), providerToken: standIn.providerToken())
        client.submit(contentsOf: [
            APNsPush(id: 1, token: token(1), bundleID: bundleID, expiration: 1),
            APNsPush(id: 2, token: token(2), bundleID: "com.example.two", expiration: 1),
            APNsPush(id: 3, token: token(3), kind: .widgets, bundleID: "com.example.two", expiration: 1),
            APNsPush(id: 4, token: token(4), kind: .widgets, bundleID: bundleID, expiration: 1),
        ])
        let answers = try drain(client)
        #expect(answers.count == 4 && answers.values.allSatisfy { $0.status == 200 }, "\(answers)")
        let topics = try (1...4).map { try #require(try standIn.state().received(token: token($0).hex).first).topic }
        #expect(
            topics == [
                bundleID, "com.example.two", "com.example.two.push-type.widgets", bundleID + ".push-type.widgets",
            ])
        #expect(Set(try standIn.state().arrivals().map(\.connection)).count == 1, "one team, one connection")
    }

    @Test func fiveHundredPushesShareOneConnection() throws {
        let standIn = try StandInStack()
        let client = try APNsClient(options: standIn.clientOptions(), providerToken: standIn.providerToken())
        client.submit(contentsOf: pushes(0..<500))

        let answers = try drain(client)
        #expect(answers.count == 500)
        #expect(answers.values.allSatisfy { $0.status == 200 })
        let state = try standIn.state()
        #expect(try state.received().count == 500)
        #expect(try state.received().allSatisfy { $0.serverProtocol == "HTTP/2.0" })
        let connections = try state.arrivals().map(\.connection)
        #expect(connections.allSatisfy { $0 != nil } && Set(connections).count == 1)
    }

    @Test func errorAnswersAreParsed() throws {
        let standIn = try StandInStack()
        let state = try standIn.state()
        let gone: Int64 = 1_700_000_000_123
        let scripted: [(Int, String, Int64?)] = [
            (400, "BadDeviceToken", nil), (403, "ExpiredProviderToken", nil), (410, "Unregistered", gone),
            (429, "TooManyRequests", nil), (500, "InternalServerError", nil),
        ]
        for (number, (status, reason, timestamp)) in scripted.enumerated() {
            try state.script(token: token(number).hex, status: status, reason: reason, timestamp: timestamp)
        }
        let client = try APNsClient(options: standIn.clientOptions(), providerToken: standIn.providerToken())
        client.submit(contentsOf: pushes(0..<scripted.count))

        let answers = try drain(client)
        for (number, (status, reason, timestamp)) in scripted.enumerated() {
            let apnsID = try #require(try state.received(token: token(number).hex).first?.apnsID)
            let expected = APNsResponse(status: status, reason: reason, timestamp: timestamp, apnsID: apnsID)
            #expect(answers[number] == .answered(expected))
        }
    }

    @Test func aRenewedTokenIsSentWithTheResubmittedPush() throws {
        let standIn = try StandInStack()
        try standIn.state().script(token: token(1).hex, status: 403, reason: "ExpiredProviderToken")
        let client = try APNsClient(options: standIn.clientOptions(), providerToken: standIn.providerToken(issuedSecondsAgo: 60))
        client.submit(APNsPush(id: 1, token: token(1), bundleID: bundleID, expiration: 1))
        client.submit(contentsOf: pushes(10..<30))
        let renewed = try standIn.providerToken()
        var retried: APNsAnswer?
        while let completion = try client.next() {
            if completion.answer.response?.reason == "ExpiredProviderToken" {
                #expect(retried == nil)
                client.providerToken = renewed
                client.submit(APNsPush(id: 2, token: token(2), bundleID: bundleID, expiration: 1), first: true)
            }
            if completion.id == 2 { retried = completion.answer }
        }
        #expect(retried?.status == 200, "the stand-in accepts the renewal right after ExpiredProviderToken")
        let received = try standIn.state().received()
        #expect(received.count == 22)
        #expect(received.first { $0.deviceToken == token(2).hex }?.authorization == renewed.authorization)
        #expect(received.filter { $0.authorization == renewed.authorization }.count == 1)
        #expect(Set(try standIn.state().arrivals().map(\.connection)).count == 1)
    }

    @Test func anUntrustedCertificateMeansUnreachable() throws {
        let standIn = try StandInStack()
        var options = standIn.clientOptions()
        options.caFile = nil
        let client = try APNsClient(options: options, providerToken: standIn.providerToken())
        client.submit(contentsOf: pushes(0..<3))
        let answers = try drain(client)
        #expect(answers.count == 3)
        #expect(answers.values.allSatisfy { $0 == .unreachable(.peerFailedVerification) })
        #expect(CurlCode.peerFailedVerification.description.contains("certificate"))
        #expect(CurlCode.peerFailedVerification.name == "CURLE_PEER_FAILED_VERIFICATION")
        #expect(try standIn.state().received().isEmpty)
    }

    @Test func connectionRefusedFailsEveryPushAsUnreachable() throws {
        let client = try APNsClient(
            options: APNsClientOptions(baseURL: "https://127.0.0.1:\(freePort())"),
            providerToken: ProviderToken(jwt: "never.sent.anywhere", issuedAt: 0))
        client.submit(contentsOf: pushes(0..<200))
        let answers = try drain(client)
        #expect(answers.count == 200)
        #expect(answers.values.allSatisfy { $0 == .unreachable(.couldNotConnect) }, "nothing left: unreachable")
    }

    /// A backlog allowed four connections, all refused at once: every push is still answered
    /// unreachable, none left waiting for a connection that never comes.
    @Test func aRefusedHostFailsALargeBacklogAsUnreachable() throws {
        var options = APNsClientOptions(baseURL: "https://127.0.0.1:\(freePort())")
        options.pushesPerConnection = 100
        let client = try APNsClient(options: options, providerToken: ProviderToken(jwt: "never.sent.anywhere", issuedAt: 0))
        client.submit(contentsOf: pushes(0..<400))
        let answers = try drain(client)
        #expect(client.connectionLimit == 4)
        #expect(answers.count == 400)
        #expect(answers.values.allSatisfy { $0 == .unreachable(.couldNotConnect) }, "nothing left: unreachable")
    }

    /// Not a fake APNs: a socket that accepts connections into its backlog and never speaks.
    @Test func aServerThatNeverAnswersHitsTheTimeout() throws {
        let silent = try SilentListener()
        var options = APNsClientOptions(baseURL: "https://127.0.0.1:\(silent.port)")
        options.requestTimeout = 1
        let client = try APNsClient(options: options, providerToken: ProviderToken(jwt: "never.sent.anywhere", issuedAt: 0))
        client.submit(contentsOf: pushes(0..<20))
        let started = ContinuousClock.now
        let answers = try drain(client)
        // Not before the timeout (no clock runs fast); how long after it is the machine's business.
        #expect(ContinuousClock.now - started >= .milliseconds(900))
        #expect(answers.count == 20)
        #expect(answers.values.allSatisfy { $0.isTimeout })
    }

    @Test func aStreamThatIsNeverAnsweredTimesOutWhileTheOthersSucceed() throws {
        let standIn = try StandInStack()
        try standIn.state().script(token: token(0).hex, status: 200, reason: nil, delayMilliseconds: 3000)
        var options = standIn.clientOptions()
        options.requestTimeout = 1
        let client = try APNsClient(options: options, providerToken: standIn.providerToken())
        client.submit(contentsOf: pushes(0...10))
        let answers = try drain(client)
        #expect(answers[0]?.isTimeout == true)
        #expect((1...10).allSatisfy { answers[$0]?.status == 200 })
    }

    @Test func cancellingStopsQueuedAndInFlightPushes() throws {
        // Workers for every stream in flight, so the later push finds one free.
        let standIn = try StandInStack(workers: 24)
        let state = try standIn.state()
        for number in 0..<200 {
            try state.script(token: token(number).hex, status: 200, reason: nil, delayMilliseconds: 3000)
        }
        var options = standIn.clientOptions()
        options.maxInFlight = 20
        let client = try APNsClient(options: options, providerToken: standIn.providerToken())
        client.submit(contentsOf: pushes(0..<200))
        #expect(try client.poll(timeoutMilliseconds: 300).isEmpty)
        #expect(client.inFlightCount == 20)
        #expect(client.queuedCount == 180)

        let cancelled = client.cancelAll()
        #expect(Set(cancelled) == Set(0..<200))
        #expect(client.isIdle)
        #expect(try client.next() == nil)

        // The client stays usable on the same connection.
        client.submit(APNsPush(id: 500, token: token(500), bundleID: bundleID, expiration: 1))
        #expect(try drain(client)[500]?.status == 200)
        // No more than the window ever reached the server.
        #expect(try state.received().filter { $0.deviceToken != token(500).hex }.count <= 20)
        #expect(Set(try state.arrivals().map(\.connection)).count == 1)
    }

    /// libcurl 7.88 gives each request a 16 kB upload buffer and keeps it until the handle is
    /// reset: the client frees it once the body has left, so a push waiting for its answer holds
    /// none (at 100 ms, 1,500 of them: 24 MB).
    @Test func aPushWaitingForItsAnswerHoldsNoUploadBuffer() throws {
        let standIn = try StandInStack(workers: 24)
        let state = try standIn.state()
        for number in 0..<20 {
            try state.script(token: token(number).hex, status: 200, reason: nil, delayMilliseconds: 3000)
        }
        let client = try APNsClient(options: standIn.clientOptions(), providerToken: standIn.providerToken())
        client.submit(contentsOf: pushes(0..<20))
        #expect(client.uploadBuffersHeld == 0, "nothing handed to libcurl yet")
        // Every request has reached the stand-in, whose answers are held 3 s.
        var early: [APNsCompletion] = []
        let arrived = waitUntil(timeout: 60) {
            early += (try? client.poll(timeoutMilliseconds: 50)) ?? []
            return ((try? state.received().count) ?? 0) >= 20
        }
        #expect(arrived && early.isEmpty)
        #expect(client.inFlightCount == 20)
        #expect(client.uploadBuffersHeld == 0, "sent, and each buffer freed")
        client.cancelAll()
    }

    /// A fault of one kind of push (a widgets topic, issue 31) cancels that kind's pushes alone,
    /// queued and in flight; the other kind's are answered on the same connection.
    @Test func cancellingOneKindLeavesTheOtherKindsPushes() throws {
        let standIn = try StandInStack(workers: 24)
        let state = try standIn.state()
        for number in 0..<60 {
            try state.script(token: token(number).hex, status: 200, reason: nil, delayMilliseconds: 2000)
        }
        var options = standIn.clientOptions()
        options.maxInFlight = 20
        let client = try APNsClient(options: options, providerToken: standIn.providerToken())
        // Widgets and wakes in turn: half of each window is of either kind.
        client.submit(
            contentsOf: (0..<60).map {
                APNsPush(
                    id: $0, token: token($0), kind: $0.isMultiple(of: 2) ? .widgets : .wake, bundleID: bundleID, expiration: 1)
            })
        #expect(try client.poll(timeoutMilliseconds: 300).isEmpty)
        #expect(client.inFlightCount == 20 && client.queuedCount == 40)

        let cancelled = client.cancel { $0.kind == .widgets }
        #expect(Set(cancelled) == Set(stride(from: 0, to: 60, by: 2)), "every widgets push, queued or in flight")
        #expect(client.inFlightCount == 10 && client.queuedCount == 20, "the wakes stay where they were")
        let answers = try drain(client)
        #expect(Set(answers.keys) == Set(stride(from: 1, to: 60, by: 2)))
        #expect(answers.values.allSatisfy { $0.status == 200 }, "\(answers.filter { $0.value.status != 200 })")
        #expect(client.isIdle && client.inFlightCount == 0)
        // No cancelled push queued at the time reached the server; one connection throughout.
        let reached = Set(try state.received().map(\.deviceToken))
        #expect(stride(from: 20, to: 60, by: 2).allSatisfy { !reached.contains(token($0).hex) })
        #expect(Set(try state.arrivals().map(\.connection)).count == 1)
    }

    @Test func theServersStreamLimitCapsWhatIsInFlight() throws {
        let standIn = try StandInStack(workers: 8, maxConcurrentStreams: 4)
        let state = try standIn.state()
        for number in 0..<8 {
            try state.script(token: token(number).hex, status: 200, reason: nil, delayMilliseconds: 15000)
        }
        var options = standIn.clientOptions()
        // The last four wait for a stream and then their own answer: 30 s, libcurl's wait included.
        options.requestTimeout = 120
        let client = try APNsClient(options: options, providerToken: standIn.providerToken())
        client.submit(contentsOf: pushes(0..<8))
        // Every answer is held 15 s (a margin no stall of a loaded machine comes near): until
        // then, only the server's 4 streams reach the stand-in.
        var early: [APNsCompletion] = []
        let arrived = waitUntil(timeout: 60) {
            early += (try? client.poll(timeoutMilliseconds: 50)) ?? []
            return ((try? state.received().count) ?? 0) >= 4
        }
        #expect(arrived && early.isEmpty)
        #expect(try state.received().count == 4)
        #expect(client.inFlightCount == 8, "the other four wait in libcurl for a free stream")
        // Streams libcurl opened before nginx's SETTINGS arrived are refused and sent again
        // (sometimes on a second connection): every push still gets its one 200.
        let answers = try drain(client)
        #expect(answers.count == 8 && answers.values.allSatisfy { $0.status == 200 })
        #expect(try state.received().count == 8)
    }

    @Test func theDepthFollowsTheServersStreamLimitWithFewPushesLeftWaitingInLibcurl() throws {
        // 20 streams a connection, every answer held 100 ms: the client may hand libcurl what the
        // server takes and a small reserve, not its whole backlog.
        let standIn = try StandInStack(workers: 24, maxConcurrentStreams: 20)
        let state = try standIn.state()
        for number in 0..<400 {
            try state.script(token: token(number).hex, status: 200, reason: nil, delayMilliseconds: 100)
        }
        let client = try APNsClient(options: standIn.clientOptions(), providerToken: standIn.providerToken())
        client.submit(contentsOf: pushes(0..<400))
        var answers: [Int: APNsAnswer] = [:]
        var deepest = 0
        while let completion = try client.next() {
            answers[completion.id] = completion.answer
            deepest = max(deepest, client.inFlightCount)
        }
        #expect(answers.count == 400 && answers.values.allSatisfy { $0.status == 200 })
        // nginx refuses streams above its limit; the client sent those again, each push once.
        let received = try state.received()
        #expect(received.count == 400 && Set(received.map(\.deviceToken)).count == 400, "each push reached it once")
        #expect(client.connectionLimit == 1)
        // Not the backlog of 400: once the limit binds (pushes wait for a stream), the window
        // keeps only the reserve of 32 beyond what started, however the passes fall. The exact
        // depth at each pass is InFlightWindowTests' (pure) and scripts/bench's, not a figure here.
        #expect(deepest < 400, "the backlog stayed in the client: \(deepest)")
    }

    @Test func nextDoorTheClientKeepsOnlyWhatTheDistanceNeedsInFlight() throws {
        // Answers in a few milliseconds: 2,000 pushes with room for 500 in flight, but a few
        // hundred cover the distance (each more costs CPU on every pass and ~21 kB).
        let standIn = try StandInStack(workers: 8)
        let client = try APNsClient(options: standIn.clientOptions(), providerToken: standIn.providerToken())
        client.submit(contentsOf: pushes(0..<2000))
        var answers: [Int: APNsAnswer] = [:]
        var deepest = 0
        while let completion = try client.next() {
            answers[completion.id] = completion.answer
            deepest = max(deepest, client.inFlightCount)
            // Sized by the distance seen (never past the server's limit), whatever it turns out to be.
            #expect(client.coveringDepth <= 500)
        }
        #expect(answers.count == 2000 && answers.values.allSatisfy { $0.status == 200 })
        #expect(try standIn.state().received().count == 2000, "each push reached it once")
        #expect(client.connectionLimit == 1)
        // The depth a given round trip needs is InFlightWindowTests' (pure); the depth a real one
        // next door gets, and what it costs, is scripts/bench's (APNsWindowBenchmark prints it).
        #expect(deepest <= 500, "one connection's 500 streams at most: \(deepest)")
    }

    @Test func aLargeBacklogIsSpreadOverAFewConnections() throws {
        let standIn = try StandInStack(workers: 8)
        var options = standIn.clientOptions()
        // Scaled down: one more connection per 100 pushes queued, 50 streams each.
        options.pushesPerConnection = 100
        options.streamsPerConnection = 50
        let client = try APNsClient(options: options, providerToken: standIn.providerToken())
        client.submit(contentsOf: pushes(0..<1000))
        let answers = try drain(client)
        #expect(answers.count == 1000 && answers.values.allSatisfy { $0.status == 200 })
        #expect(client.connectionLimit == 4, "clamped at four")
        let connections = Set(try standIn.state().arrivals().compactMap(\.connection))
        #expect(connections.count == 4, "every allowed connection carried pushes: \(connections.count)")
    }

    /// The connections a backlog is allowed open together, not one after the other: waiting for
    /// the first to say it multiplexes (CURLOPT_PIPEWAIT) put the others a round trip later, a
    /// tenth of a sweep of 20,000 at 100 ms. Counted at a server that never finishes a handshake,
    /// where every connection opened waits in its accept queue.
    @Test func aLargeBacklogOpensItsConnectionsAtOnce() throws {
        let silent = try SilentListener()
        var options = APNsClientOptions(baseURL: "https://127.0.0.1:\(silent.port)")
        options.pushesPerConnection = 100
        options.streamsPerConnection = 50
        let client = try APNsClient(options: options, providerToken: ProviderToken(jwt: "never.sent.anywhere", issuedAt: 0))
        client.submit(contentsOf: pushes(0..<400))
        let deadline = ContinuousClock.now + .seconds(5)
        while try silent.queuedConnections() < 4 && ContinuousClock.now < deadline {
            #expect(try client.poll(timeoutMilliseconds: 50).isEmpty, "no answer from a server that never speaks")
        }
        #expect(client.connectionLimit == 4)
        #expect(try silent.queuedConnections() == 4, "all four opened before any handshake ended")
        #expect(client.cancelAll().count == 400)
    }

    @Test func anAnnouncedBacklogGetsItsConnectionsThoughItIsSubmittedAFewAtATime() throws {
        let standIn = try StandInStack(workers: 8)
        var options = standIn.clientOptions()
        options.pushesPerConnection = 100
        options.streamsPerConnection = 50
        let client = try APNsClient(options: options, providerToken: standIn.providerToken())
        client.expectedPushes = 300
        var answers: [Int: APNsAnswer] = [:]
        for start in stride(from: 0, to: 300, by: 60) {  // as the sweep does: a little ahead of the window
            client.submit(contentsOf: pushes(start..<(start + 60)))
            for completion in try client.poll(timeoutMilliseconds: 100) { answers[completion.id] = completion.answer }
        }
        #expect(client.expectedPushes == 0, "counted down as they came")
        while let completion = try client.next() { answers[completion.id] = completion.answer }
        #expect(answers.count == 300 && answers.values.allSatisfy { $0.status == 200 })
        #expect(client.connectionLimit == 3, "one per 100 announced, not one for the 60 queued at a time")
    }
}

@Suite struct APNsClientOptionsTests {
    @Test func environmentsNameApplesHostsAndMayConnectElsewhere() {
        #expect(APNsClientOptions(environment: .production).baseURL == "https://api.push.apple.com")
        #expect(APNsClientOptions(environment: .sandbox).baseURL == "https://api.sandbox.push.apple.com")
        let local = APNsClientOptions(environment: .sandbox, connectTo: "127.0.0.1:8443")
        #expect(local.baseURL == "https://api.sandbox.push.apple.com", "the push still names Apple's host")
        #expect(local.connectTo == "127.0.0.1:8443")
        #expect(APNsClientOptions(baseURL: "https://127.0.0.1:8443/").baseURL == "https://127.0.0.1:8443")
    }

    @Test func curlCodesHaveBoundedNames() {
        #expect(CurlCode.operationTimedOut.name == "CURLE_OPERATION_TIMEDOUT")
        #expect(CurlCode.couldNotConnect.name == "CURLE_COULDNT_CONNECT")
        #expect(CurlCode.http2Stream.name == "CURLE_HTTP2_STREAM")
        #expect(CurlCode(rawValue: 0).name == "CURLE_OK")
        #expect(CurlCode(rawValue: 99).name == "CURLE_UNRECOVERABLE_POLL")
        #expect(CurlCode.badCAFile.name == "CURLE_SSL_CACERT_BADFILE")
        #expect(CurlCode(rawValue: 1234).name == "CURLE_1234")
        #expect(CurlCode(rawValue: -1).name == "CURLE_-1")
    }

    @Test func errorBodiesParseReasonAndTimestamp() {
        let gone = APNsResponse(
            status: 410, body: Array(#"{"reason":"ExpiredToken","timestamp":1700000000999}"#.utf8), apnsID: nil)
        #expect(gone.reason == "ExpiredToken" && gone.timestamp == 1_700_000_000_999)
        #expect(APNsResponse(status: 200, body: [], apnsID: "x") == APNsResponse(status: 200, apnsID: "x"))
        #expect(APNsResponse(status: 502, body: Array("<html>bad gateway</html>".utf8), apnsID: nil).reason == nil)
    }

    /// What the reader keeps of a body that is not quite Apple's: a numeric string or a fraction
    /// still dates a 410 (the guard needs it); a boolean, an object or a reason that is no string
    /// is dropped, and the rest of the body still counts.
    @Test(
        arguments: [
            (#"{"reason":"Unregistered","timestamp":"1700000000999"}"#, "Unregistered", 1_700_000_000_999),
            (#"{"reason":"Unregistered","timestamp":1700000000999.7}"#, "Unregistered", 1_700_000_000_999),
            (#"{"reason":"Unregistered","timestamp":true}"#, "Unregistered", nil),
            (#"{"reason":7,"timestamp":{"ms":1}}"#, nil, nil),
            (#"{"timestamp":1e300,"reason":"Unregistered"}"#, "Unregistered", Int64.max),
            (#"{"reason":"BadDeviceToken","reason":"Unregistered"}"#, "Unregistered", nil),
            (#"["Unregistered"]"#, nil, nil),
            (#"{"reason":"Unregistered""#, nil, nil),
        ] as [(String, String?, Int64?)])
    func oddErrorBodies(body: String, reason: String?, timestamp: Int64?) {
        let answer = APNsResponse(status: 410, body: Array(body.utf8), apnsID: nil)
        #expect(answer.reason == reason)
        #expect(answer.timestamp == timestamp)
    }
}
