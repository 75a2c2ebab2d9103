import Foundation
import TestSupport

/// Debian's `chromium`, headless, as the status page's person: loads a URL and hands back the
/// DOM it built, or a PNG of what it drew. Each run is a `runCommand` with a bound, in a process
/// group of its own (chromium's helpers go with it) and a fresh profile folder of its own; its
/// exit status is checked.
struct HeadlessChromium {
    /// The one line a test fails with when the browser is not installed (CI installs it).
    static let missing = "chromium is not installed: apt-get install chromium (scripts/install-deps installs it)"

    let executable: String
    /// Where each death's whole stderr is appended (nil: nowhere), for the one who reads a failure.
    var deathLog: String?

    /// nil when Debian's package is not installed. The browser itself, not Debian's `chromium`
    /// wrapper script: the flags are all given here, and the wrapper's shell test of /dev/shm's
    /// free space breaks when another test has a filesystem mounted there for a moment.
    init?() {
        let browser = "/usr/lib/chromium/chromium"
        if FileManager.default.isExecutableFile(atPath: browser) {
            executable = browser
        } else if let wrapper = systemTool("chromium") {
            executable = wrapper
        } else {
            return nil
        }
    }

    /// The DOM after loading `url`, serialized (`--dump-dom`).
    func dom(_ url: String) throws -> String {
        try run(["--dump-dom", url]).stdout
    }

    /// Saves what a window of `width` x `height` CSS pixels shows of `url` as a PNG at `path`.
    /// On a machine whose cores are both busy, chromium has exited 0 without writing the file
    /// (once in a suite run with two busy loops): that is tried again, three times at most, and
    /// what it said each time goes in the error.
    func screenshot(_ url: String, to path: String, width: Int, height: Int) throws {
        var said: [String] = []
        while said.count < 3 {
            try? FileManager.default.removeItem(atPath: path)
            let result = try run(["--screenshot=\(path)", "--window-size=\(width),\(height)", url])
            if FileManager.default.fileExists(atPath: path) { return }
            said.append(String(result.stderr.suffix(400)))
            sleep(2)
        }
        throw SocketError("chromium made no screenshot of \(url) in \(said.count) runs: \(said.joined(separator: " | "))")
    }

    /// The browser is the test's eye, not what it tests: a death by a signal is tried again
    /// after a pause, five times at most, with what each death said kept in full in `deathLog`;
    /// any other failure fails the test. (Without its zygote, and with one profile for every
    /// run, it once died six times in ten seconds, status 133 with nothing on stderr but
    /// crashpad's lines; so each run has its own profile, and its own log on stderr.)
    private func run(_ arguments: [String]) throws -> CommandResult {
        var deaths: [String] = []
        while true {
            let result = try runOnce(arguments)
            if result.status == 0 { return result }
            let died = result.status > 128 && deaths.count < 5
            guard died else {
                let earlier = deaths.isEmpty ? "" : " (after \(deaths.count) earlier deaths: \(deaths.joined(separator: "; ")))"
                throw SocketError("chromium exited with status \(result.status)\(earlier): \(result.stderr.suffix(800))")
            }
            deaths.append("status \(result.status): \(result.stderr.suffix(200))")
            if let deathLog {
                let entry = "\(Date()) chromium exited with status \(result.status)\n\(result.stderr)\n"
                if let handle = FileHandle(forWritingAtPath: deathLog) ?? createFile(deathLog) {
                    handle.seekToEndOfFile()
                    handle.write(Data(entry.utf8))
                    try? handle.close()
                }
            }
            sleep(2)
        }
    }

    /// One browser, with a profile made for it and removed after: nothing a run leaves (its
    /// singleton lock, a crash's state) reaches the next. Its log goes to stderr, so a death
    /// says which check failed.
    private func runOnce(_ arguments: [String]) throws -> CommandResult {
        let profile = TemporaryDirectory("chromium")
        let flags = [
            "--headless=new", "--no-sandbox", "--no-zygote", "--disable-gpu", "--user-data-dir=\(profile.path)", "--no-first-run",
            "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--hide-scrollbars",
            "--force-device-scale-factor=1", "--enable-logging=stderr",
        ]
        // `--no-zygote`: renderers are started straight from the browser, not forked by its
        // zygote. Started by the suite on a loaded machine, the zygote died now and then at start
        // (status 133, SIGTRAP: its CHECK on a failed fork or handshake, "write: Broken pipe").
        return try runCommand(
            executable, flags + arguments, environment: ["PATH": "/usr/bin:/bin", "HOME": profile.path], timeout: 120,
            crashFailsTheTest: false)
    }

    private func createFile(_ path: String) -> FileHandle? {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return FileHandle(forWritingAtPath: path)
    }
}
