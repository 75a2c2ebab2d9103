import Foundation

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

/// A loopback TCP port that was free a moment ago (the kernel picks it).
public func freePort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
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
