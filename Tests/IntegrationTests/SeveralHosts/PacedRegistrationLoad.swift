import Foundation
import TestSupport
import Testing

/// Clients registering new devices through nginx at a bounded pace (a pause after each request),
/// until stopped: load the hosts' sweeps can then push in full, under the caps.
final class PacedRegistrationLoad: @unchecked Sendable {
    let answers = LockedBox<[(token: String, status: Int)]>([])
    let failures = LockedBox<[String]>([])
    private let running = LockedBox(true)
    private let clients = DispatchGroup()

    init(port: Int, clients count: Int = 2, pauseMilliseconds: UInt32 = 50) {
        for client in 0..<count {
            clients.enter()
            Thread.detachNewThread { [self] in
                defer { clients.leave() }
                var seed = 0
                while running.get() {
                    seed += 1
                    let token = testToken(700_000 + client * 100_000 + seed)
                    do {
                        let result = try HTTPClient.request(
                            port: port, method: "POST", path: "/wakeup", headers: [("Content-Type", "application/json")],
                            body: Array(registerBody(token).utf8))
                        answers.update { $0.append((token, result.status)) }
                    } catch {
                        failures.update { $0.append("\(error)") }
                    }
                    usleep(pauseMilliseconds * 1000)
                }
            }
        }
    }

    var accepted: [String] { answers.get().filter { $0.status == 200 }.map(\.token) }

    /// Waits (bounded) until `count` more registrations were answered 200 than at the call.
    func expectMoreAccepted(_ count: Int, _ what: String) {
        let before = accepted.count
        #expect(
            waitUntil(timeout: 120) { self.accepted.count >= before + count },
            "\(what): \(answers.get().count) answers, statuses \(Set(answers.get().map(\.status))), \(failures.get().prefix(3))")
    }

    /// Stops the clients and waits for them (each request is bounded by its socket's timeout).
    func stop() {
        running.set(false)
        #expect(clients.wait(timeout: .now() + 120) == .success, "the clients did not finish")
    }
}
