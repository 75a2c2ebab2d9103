import Foundation
import TestSupport

/// Debian's `chromium`, headless, as the status page's person: loads a URL and hands back the
/// DOM it built, or a PNG of what it drew. Each run is a `runCommand` with a bound, in a process
/// group of its own (chromium's helpers go with it) and a profile folder of its own; its exit
/// status is checked.
struct HeadlessChromium {
    /// The one line a test fails with when the browser is not installed (CI installs it).
    static let missing = "chromium is not installed: apt-get install chromium (scripts/install-deps installs it)"

    let executable: String
    private let profile = TemporaryDirectory("chromium")

    /// nil when Debian's package is not installed.
    init?() {
        guard let executable = systemTool("chromium") else { return nil }
        self.executable = executable
    }

    /// The DOM after loading `url`, serialized (`--dump-dom`).
    func dom(_ url: String) throws -> String {
        try run(["--dump-dom", url]).stdout
    }

    /// Saves what a window of `width` x `height` CSS pixels shows of `url` as a PNG at `path`.
    func screenshot(_ url: String, to path: String, width: Int, height: Int) throws {
        try? FileManager.default.removeItem(atPath: path)
        _ = try run(["--screenshot=\(path)", "--window-size=\(width),\(height)", url])
        guard FileManager.default.fileExists(atPath: path) else { throw SocketError("chromium made no screenshot of \(url)") }
    }

    private func run(_ arguments: [String]) throws -> CommandResult {
        let flags = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile.path)", "--no-first-run",
            "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--hide-scrollbars",
            "--force-device-scale-factor=1",
        ]
        let result = try runCommand(
            executable, flags + arguments, environment: ["PATH": "/usr/bin:/bin", "HOME": profile.path], timeout: 120)
        guard result.status == 0 else {
            throw SocketError("chromium exited with status \(result.status): \(result.stderr.suffix(800))")
        }
        return result
    }
}
