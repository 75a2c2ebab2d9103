import Foundation
import TestSupport

@testable import LiveActivityWakeClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A client of `stack` through nginx, as an app makes one: URLSession over loopback, each request
/// bounded by a minute (as the tests' own HTTP client: a loaded machine is slow). `waits`
/// records each wait between attempts instead of taking it, then runs its `during` (a test frees
/// a slot there, say), with no jitter drawn (so a wait is the policy's own: the jitter's spread
/// is `WakeDiagnosticsTests`'); without it the client sleeps for real.
func wakeClient(
    _ stack: LiveStack, prefix: String = "", environment: WakeEnvironment = .fromBuild,
    policy: WakeRetryPolicy = .standard, log: LogLines? = nil, waits: RecordedWaits? = nil
) -> WakeClient {
    let base = URL(string: "http://127.0.0.1:\(stack.port)")!
    var sink: (@Sendable (String) -> Void)?
    if let log { sink = { line in log.append(line) } }
    guard let waits else {
        return WakeClient(
            baseURL: base, pathPrefix: prefix, environment: environment, retryPolicy: policy, requestTimeout: 60, log: sink)
    }
    return WakeClient(
        baseURL: base, pathPrefix: prefix, environment: environment, transport: WakeClient.defaultTransport, retryPolicy: policy,
        requestTimeout: 60, log: sink, sleep: { seconds in waits.record(seconds) }, spread: { 0 })
}

/// The waits a client asked for, and what happens while it "waits".
final class RecordedWaits: Sendable {
    private let box = LockedBox<[Double]>([])
    private let during: @Sendable () -> Void
    init(during: @escaping @Sendable () -> Void = {}) { self.during = during }
    func record(_ seconds: Double) {
        box.update { $0.append(seconds) }
        during()
    }
    var seconds: [Double] { box.get() }
}

/// The lines a client logged.
final class LogLines: Sendable {
    private let box = LockedBox<[String]>([])
    func append(_ line: String) { box.update { $0.append(line) } }
    var lines: [String] { box.get() }
}

/// A token of the tests' as the app has it: bytes.
func deviceToken(_ seed: Int, length: Int = 64) -> DeviceToken {
    let hex = Array(testToken(seed, length: length).utf8)
    let bytes = stride(from: 0, to: hex.count, by: 2).map { UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    return DeviceToken(Data(bytes))
}

/// How many requests for `path` nginx logged with `status`, once at least `expected` are in
/// its access log (it writes a line as it finishes a request, a moment after the answer).
func loggedRequests(_ stack: LiveStack, _ path: String, status: Int, expected: Int) -> Int {
    let needle = "\"POST \(path) HTTP/1.1\" \(status) "
    let count = { stack.accessLog.components(separatedBy: "\n").filter { $0.contains(needle) }.count }
    waitUntil(timeout: 30) { count() >= expected }
    return count()
}

/// `error` as the client's typed error, to match its case.
func clientError(_ body: () async throws -> Void) async -> WakeClientError? {
    do {
        try await body()
        return nil
    } catch let error as WakeClientError {
        return error
    } catch {
        return .transport(code: -1, message: "not a WakeClientError: \(error)")
    }
}

/// Whether an ack waits on `token`'s row: an ack that comes while the row is due (a fresh
/// registration is, until the next sweep pushes it) is kept there and judged when that push's
/// answer is written (SPEC 3), so it is not counted yet.
func ackWaits(on token: String, in stack: LiveStack) throws -> Bool {
    try stack.database.scalar(
        "SELECT count(*) FROM push_targets WHERE push_token = '\(token)' AND waiting_ack_at IS NOT NULL") == 1
}
