import Foundation
import TestSupport

/// The API over HTTPS on port 443 of this host, under the site's name, as the app reaches it
/// (curl with the site's self-signed certificate). Remembers every token answered 200.
final class SiteClient {
    let siteName: String
    let certificate: String
    private let scratch: String
    /// Every token a registration answered 200 for, in order.
    private(set) var acknowledged: [String] = []
    private var nextToken: Int
    private var nextClient = 0

    /// `firstToken` keeps this client's tokens apart from another's on the same host.
    init(siteName: String, certificate: String, scratch: String, firstToken: Int = 700_000) {
        self.siteName = siteName
        self.certificate = certificate
        self.scratch = scratch
        nextToken = firstToken
    }

    /// Tokens answered 200 elsewhere (by a hand-made deployment before the package came).
    func adopt(_ tokens: [String]) { acknowledged += tokens }

    /// POSTs `body` to `path`, from a loopback address of its own each time: nginx limits each
    /// client address to 5 requests/s.
    func post(_ path: String, _ body: String) -> (status: Int, body: String) {
        nextClient += 1
        let source = "127.0.\(nextClient / 250 + 1).\(nextClient % 250 + 2)"
        return curl(["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", body, "--interface", source], path)
    }

    /// GETs `path` from 127.0.0.1, which the monitoring routes allow.
    func get(_ path: String) -> (status: Int, body: String) { curl([], path) }

    /// Registers a new token; remembers it when the answer is 200.
    @discardableResult
    func registerNewToken(type: String = "charging") -> (status: Int, body: String) {
        let token = testToken(nextToken)
        nextToken += 1
        let answer = post("/wakeup", "{\"pushToken\":\"\(token)\",\"activityType\":\"\(type)\"}")
        if answer.status == 200 { acknowledged.append(token) }
        return answer
    }

    /// Registers `count` new tokens; returns the statuses that were not 200.
    func register(_ count: Int) -> [Int] {
        (0..<count).map { _ in registerNewToken().status }.filter { $0 != 200 }
    }

    /// The first answer of `path` that is 200 within `timeout` seconds, or the last one.
    func waitForOK(_ path: String, timeout: TimeInterval = 10) -> (status: Int, body: String) {
        var last = (status: -1, body: "")
        waitUntil(timeout: timeout) {
            last = get(path)
            if last.status != 200 { usleep(100_000) }
            return last.status == 200
        }
        return last
    }

    private func curl(_ arguments: [String], _ path: String) -> (status: Int, body: String) {
        let bodyPath = scratch + "/curl-body-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: bodyPath) }
        let command =
            [
                systemTool("curl") ?? "/usr/bin/curl", "-sS", "--max-time", "5", "--cacert", certificate, "--resolve",
                "\(siteName):443:127.0.0.1", "-o", bodyPath, "-w", "%{http_code}",
            ] + arguments + ["https://\(siteName)\(path)"]
        guard let result = try? HostCommand.run(command, environment: [:], timeout: 10, scratch: scratch) else {
            return (-1, "curl did not run")
        }
        // -w prints the status last; curl's own error (stderr) comes before it.
        let status = Int(result.output.suffix(3)) ?? -1
        let body = (try? String(contentsOfFile: bodyPath, encoding: .utf8)) ?? ""
        return status > 0 ? (status, body) : (-1, result.output)
    }
}
