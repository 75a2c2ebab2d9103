import Foundation
import Synchronization

/// Where the package's built executables are: beside the test bundle that is running.
public let productsDirectory: String = {
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    var url = URL(fileURLWithPath: exe).deletingLastPathComponent()
    // On Linux the runner is `<products>/<Package>PackageTests.xctest`, a plain executable.
    while url.path.hasSuffix(".xctest") || url.lastPathComponent == "MacOS" { url.deleteLastPathComponent() }
    return url.path
}()

/// The path of a built executable of this package.
public func product(_ name: String) -> String { productsDirectory + "/" + name }

/// The package's root folder (for `nginx/` and `scripts/`).
public let packageRoot: String = {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
}()

/// Finds `name` on the usual system paths (nginx lives in /usr/sbin, which PATH may lack).
public func systemTool(_ name: String) -> String? {
    for folder in ["/usr/sbin", "/usr/bin", "/sbin", "/bin", "/usr/local/bin", "/usr/local/sbin"] {
        let path = folder + "/" + name
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
}

/// A loopback TCP port that was free a moment ago, below the kernel's ephemeral range
/// (32768-60999): a client polling a port that is not yet listening is given consecutive
/// ephemeral source ports, and when one equals the port it polls the socket connects to itself
/// (TCP simultaneous open), so a test would see "listening" where nothing listens. Each port is
/// handed out once per test process.
public func freePort() -> Int {
    while true {
        let port = Int.random(in: 20_000...32_000)
        let isNew = handedOutPorts.withLock { $0.insert(port).inserted }
        if isNew, canBind(port: port) { return port }
    }
}

private let handedOutPorts = Mutex<Set<Int>>([])

private func canBind(port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    let length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    return bound == 0
}

/// Polls `condition` every 20 ms until it holds or `timeout` seconds pass, on the monotonic clock:
/// a step of the wall clock neither ends the wait early nor stretches it.
@discardableResult
public func waitUntil(timeout: TimeInterval = 60, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + .seconds(timeout)
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}
