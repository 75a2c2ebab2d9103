import APNsHTTP2
import Foundation
import LiveActivityCore
import TestSupport
import Testing

/// Not a timed test: run with `LIVEACTIVITY_APNS_BENCH=1` to print pushes per second through
/// one HTTP/2 connection to the local nginx for several in-flight windows, and the process's
/// peak memory, which must stay flat however many pushes are queued.
@Suite struct APNsWindowBenchmark {
    static let enabled = ProcessInfo.processInfo.environment["LIVEACTIVITY_APNS_BENCH"] != nil

    @Test(.enabled(if: enabled)) func pushesPerSecondByWindow() throws {
        let server = try NginxAPNsFixture(maxConcurrentStreams: 1000)
        let count = Int(ProcessInfo.processInfo.environment["LIVEACTIVITY_APNS_BENCH_PUSHES"] ?? "") ?? 20_000
        for window in [10, 50, 100, 200, 500, 1000] {
            var options = APNsClientOptions(baseURL: server.baseURL, topic: "t")
            options.caFile = server.certificatePath
            options.maxInFlight = window
            let client = try APNsClient(options: options, providerToken: placeholderToken)
            client.submit(contentsOf: (0..<count).map { APNsPush(id: $0, token: testToken("aa", $0), expiration: 1) })
            let started = Date()
            var succeeded = 0
            var others: [String: Int] = [:]
            while let completion = try client.next() {
                if completion.answer.response?.status == 200 {
                    succeeded += 1
                } else {
                    others["\(completion.answer)", default: 0] += 1
                }
            }
            let seconds = Date().timeIntervalSince(started)
            print(
                "window \(window): \(succeeded)/\(count) in \(String(format: "%.2f", seconds)) s = "
                    + "\(Int(Double(succeeded) / seconds)) pushes/s, peak RSS \(peakResidentKilobytes()) kB")
            #expect(succeeded == count, "\(others)")
        }
    }

    private func peakResidentKilobytes() -> String {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        return status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }?
            .split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.map(String.init) ?? "?"
    }
}
