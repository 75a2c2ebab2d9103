import APNsHTTP2
import Foundation
import LiveActivityDomain
import TestSupport
import Testing

/// Not a timed test: run with `LIVEACTIVITY_APNS_BENCH=1` to print pushes per second through
/// one HTTP/2 connection for several in-flight windows, and the process's peak memory, which
/// must stay flat however many pushes are queued. The endpoint is `scripts/bench`'s fastest
/// APNs-like nginx (every push answered 200 at once), so the client is what is measured.
@Suite struct APNsWindowBenchmark {
    static let enabled = ProcessInfo.processInfo.environment["LIVEACTIVITY_APNS_BENCH"] != nil

    @Test(.enabled(if: enabled)) func pushesPerSecondByWindow() throws {
        let folder = TemporaryDirectory("apns-bench")
        let certificate = try TestCertificate(in: folder)
        let prefix = folder.file("nginx")
        try FileManager.default.createDirectory(atPath: prefix + "/empty", withIntermediateDirectories: true)
        let template = try String(
            contentsOfFile: packageRoot + "/scripts/bench-support/apns-endpoint.conf.template", encoding: .utf8)
        let (port, nginx) = try LoopbackNginx.start(prefix: prefix, outputPath: folder.file("nginx.out")) { candidate in
            template.replacingOccurrences(of: "@PREFIX@", with: prefix).replacingOccurrences(
                of: "@PORT@", with: String(candidate)
            )
            .replacingOccurrences(of: "@CERT@", with: certificate.certificatePath)
            .replacingOccurrences(of: "@CERT_KEY@", with: certificate.keyPath)
        }
        defer { nginx.stop() }

        let count = Int(ProcessInfo.processInfo.environment["LIVEACTIVITY_APNS_BENCH_PUSHES"] ?? "") ?? 20_000
        for window in [10, 50, 100, 200, 500, 1000] {
            var options = APNsClientOptions(baseURL: "https://127.0.0.1:\(port)")
            options.caFile = certificate.certificatePath
            options.maxInFlight = window
            let client = try APNsClient(options: options, providerToken: ProviderToken(jwt: "not.checked.here", issuedAt: 0))
            client.submit(
                contentsOf: (0..<count).map {
                    APNsPush(id: $0, token: PushToken(trusted: testToken($0)), bundleID: "t", expiration: 1)
                })
            let started = Date()
            var succeeded = 0
            var deepest = 0
            var others: [String: Int] = [:]
            while let completion = try client.next() {
                deepest = max(deepest, client.inFlightCount)
                if completion.answer.status == 200 {
                    succeeded += 1
                } else {
                    others["\(completion.answer)", default: 0] += 1
                }
            }
            let seconds = Date().timeIntervalSince(started)
            print(
                "window \(window): \(succeeded)/\(count) in \(String(format: "%.2f", seconds)) s = "
                    + "\(Int(Double(succeeded) / seconds)) pushes/s, deepest in flight \(deepest) "
                    + "(covering depth \(client.coveringDepth)), peak RSS \(peakResidentKilobytes()) kB")
            #expect(succeeded == count, "\(others)")
        }
    }

    private func peakResidentKilobytes() -> String {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        return status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }?
            .split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.map(String.init) ?? "?"
    }
}
