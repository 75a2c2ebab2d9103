import APNsHTTP2
import Foundation
import LiveActivityDomain
import TestSupport
import Testing

/// The client's HTTP/2 semantics against the stand-in's nginx when the server misbehaves in the
/// ways APNs may: GOAWAY, a host that is not APNs, the wrong certificate name, and a deadline.
@Suite struct APNsClientFaultTests {
    /// libcurl resends streams above a GOAWAY's last id on a new connection, but only 5 times
    /// per easy handle lifetime; pooled handles that were never reset lost pushes here.
    @Test func goawayEveryFiftyStreamsLosesNoPush() throws {
        let standIn = try StandInStack(workers: 8, goawayAfter: 50)
        let client = try APNsClient(options: standIn.clientOptions(), providerToken: standIn.providerToken())
        client.submit(contentsOf: pushes(0..<2000))
        let answers = try drain(client)
        #expect(answers.count == 2000)
        let failed = answers.filter { $0.value.status != 200 }
        #expect(failed.isEmpty, "\(failed.prefix(5)) counters \(client.counters)")
        let received = try standIn.state().received()
        #expect(Set(received.map(\.deviceToken)).count == 2000, "every push reached the server")
        #expect(Set(try standIn.state().arrivals().compactMap(\.connection)).count >= 40, "one connection per 50 streams")
    }

    @Test func aServerWithoutHTTP2IsNotAPNs() throws {
        let standIn = try StandInStack(http2: false)
        let client = try APNsClient(options: standIn.clientOptions(), providerToken: standIn.providerToken())
        client.submit(contentsOf: pushes(0..<3))
        let answers = try drain(client)
        #expect(answers.count == 3 && answers.values.allSatisfy { $0 == .notHTTP2 })
    }

    @Test func pushesNameApplesHostWhereverTheyConnect() throws {
        let standIn = try StandInStack()
        // The certificate names Apple's hosts: a push naming another host is refused by TLS.
        var wrongName = APNsClientOptions(baseURL: "https://push.example.net")
        wrongName.connectTo = "127.0.0.1:\(standIn.port)"
        wrongName.caFile = standIn.certificatePath
        let refused = try APNsClient(options: wrongName, providerToken: standIn.providerToken())
        refused.submit(contentsOf: pushes(0..<2))
        #expect(try drain(refused).values.allSatisfy { $0 == .unreachable(.peerFailedVerification) })

        for environment in APNsEnvironment.allCases {
            let client = try APNsClient(
                options: standIn.clientOptions(environment: environment), providerToken: standIn.providerToken())
            client.submit(contentsOf: pushes(10..<12))
            #expect(try drain(client).values.allSatisfy { $0.status == 200 })
        }
        let received = try standIn.state().received()
        #expect(received.map(\.environment) == [.production, .production, .sandbox, .sandbox], "told apart by :authority")
    }

    /// nginx answering before it read the body resets the stream after the answer (NO_ERROR);
    /// libcurl 7.88 then sometimes reports error 92, 18 or 16 with the whole answer received.
    @Test func aCompleteAnswerFollowedByAResetIsThatAnswer() throws {
        let standIn = try StandInStack(resetAfterAnswer: true)
        let client = try APNsClient(options: standIn.clientOptions(), providerToken: standIn.providerToken())
        client.submit(contentsOf: pushes(0..<1000))
        let answers = try drain(client)
        #expect(answers.count == 1000)
        let failed = answers.filter { $0.value.status != 200 }
        #expect(failed.isEmpty, "\(failed.prefix(5)) counters \(client.counters)")
        #expect(answers.values.allSatisfy { $0.response?.apnsID?.count == 36 })
        let answered = try standIn.nginxAnswered()
        #expect(answered.count == 1000 && Set(answered.map(\.path)).count == 1000, "each push reached the server once")
        #expect(answered.allSatisfy { $0.host == "api.push.apple.com" && $0.status == 200 })
    }

    @Test func nothingStartsAfterTheDeadlineAndWhatIsInFlightEndsByIt() throws {
        let standIn = try StandInStack(workers: 8)
        let state = try standIn.state()
        for number in 0..<4 {
            try state.script(token: token(number).hex, status: 200, reason: nil, delayMilliseconds: 3000)
        }
        var options = standIn.clientOptions()
        options.maxInFlight = 4
        let client = try APNsClient(options: options, providerToken: standIn.providerToken())
        client.deadline = Deadline(sendUntil: .now + .seconds(1), drain: .zero)
        client.submit(contentsOf: pushes(0..<10))
        let started = ContinuousClock.now
        let answers = try drain(client)
        // Not before the deadline; and ended by it, not by the answers: those come after 3 s as
        // 200s, and each in-flight push is a timeout instead.
        #expect(ContinuousClock.now - started >= .milliseconds(900))
        #expect(answers.count == 4 && answers.values.allSatisfy { $0.isTimeout }, "\(answers)")
        #expect(client.isIdle && client.queuedCount == 6, "the rest never started")
        #expect(Set(client.withdrawQueued()) == Set(4..<10))
        #expect(client.queuedCount == 0)
    }

    @Test func withdrawingLeavesWhatIsInFlightToFinish() throws {
        let standIn = try StandInStack(workers: 8)
        let state = try standIn.state()
        for number in 0..<5 {
            try state.script(token: token(number).hex, status: 200, reason: nil, delayMilliseconds: 500)
        }
        var options = standIn.clientOptions()
        options.maxInFlight = 5
        let client = try APNsClient(options: options, providerToken: standIn.providerToken())
        client.submit(contentsOf: pushes(0..<50))
        _ = try client.poll(timeoutMilliseconds: 100)
        #expect(client.inFlightCount == 5)
        #expect(Set(client.withdrawQueued()) == Set(5..<50))
        let answers = try drain(client)
        #expect(Set(answers.keys) == Set(0..<5) && answers.values.allSatisfy { $0.status == 200 })
        #expect(try state.received().count == 5)
    }
}
