import Foundation
import SystemSupport
import TestSupport
import Testing

/// Clients posting a new registration each through nginx until stopped, with a pause after each
/// request when the load must stay under the caps (so the sweeps can push it in full).
final class RegistrationLoad: Sendable {
    /// What the clients share with the test: every answer, every request that got none, and
    /// whether they are to go on.
    private struct State {
        var answers: [(token: String, status: Int)] = []
        var failures: [String] = []
        var running = true
    }

    private let state = LockedValue(State())
    private let clients = TestThreads()

    /// Client `c`'s tokens are `testToken(firstSeed + c * 100_000 + n)`, n = 1, 2, ...
    init(port: Int, clients count: Int = 4, pauseMilliseconds: UInt32 = 0, firstSeed: Int = 500_000) {
        for client in 0..<count {
            clients.start { [state] in
                var seed = 0
                while state.withLock({ $0.running }) {
                    seed += 1
                    let token = testToken(firstSeed + client * 100_000 + seed)
                    do {
                        let result = try HTTPClient.request(
                            port: port, method: "POST", path: "/wakeup", headers: [("Content-Type", "application/json")],
                            body: Array(registerBody(token).utf8))
                        state.withLock { $0.answers.append((token, result.status)) }
                    } catch {
                        state.withLock { $0.failures.append("\(error)") }
                    }
                    if pauseMilliseconds > 0 { usleep(pauseMilliseconds * 1000) }
                }
            }
        }
    }

    /// Two clients pausing 50 ms after each request: load several hosts' sweeps push in full.
    static func paced(port: Int) -> RegistrationLoad {
        RegistrationLoad(port: port, clients: 2, pauseMilliseconds: 50, firstSeed: 700_000)
    }

    /// Every answer so far: the token posted and the status.
    var answers: [(token: String, status: Int)] { state.withLock { $0.answers } }

    /// Every request so far that got no answer (the error).
    var failures: [String] { state.withLock { $0.failures } }

    var accepted: [String] { answers.filter { $0.status == 200 }.map(\.token) }

    /// Waits (bounded) until `count` more registrations were answered 200 than at the call.
    func expectMoreAccepted(_ count: Int, _ what: String) {
        let before = accepted.count
        #expect(
            waitUntil(timeout: 120) { self.accepted.count >= before + count },
            "\(what): \(answers.count) answers, statuses \(Set(answers.map(\.status))), \(failures.prefix(3))")
    }

    /// Stops the clients and waits for them (each request is bounded by its socket's timeout).
    func stop() {
        state.withLock { $0.running = false }
        #expect(clients.wait(timeout: .seconds(120)), "the clients did not finish")
    }
}
