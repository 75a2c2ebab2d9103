import Foundation
import TestSupport

/// This host, deployed as docs/INSTALL.md's "Deployment on a shared host" says, with the local APNs
/// stand-in in Apple's place. docs/INSTALL.md's blocks run from `staging`, a folder laid out like a
/// checkout after `swift build -c release` (the test's own build, the shipped cron/, nginx/ and
/// systemd/ files, and a throwaway key under docs/INSTALL.md's key name).
final class OperatorHost {
    let claim: HostClaim
    let readme: ReadmeDeployment
    let siteName: String
    let staging: TemporaryDirectory
    let standIn: StandInStack
    /// The site's self-signed certificate, which curl trusts for the site's name.
    let siteCertificate: String
    let databasePath: String
    let configPath: String
    /// Every token the API answered 200 for, in order: none may ever be lost.
    private(set) var acknowledged: [String] = []
    /// Each event survived, with the seconds until a registration answered 200 again.
    var recoveries: [(event: String, seconds: TimeInterval)] = []
    private var nextToken = 1
    private var nextClient = 0

    init(claim: HostClaim, readme: ReadmeDeployment, siteName: String) throws {
        self.claim = claim
        self.readme = readme
        self.siteName = siteName
        staging = TemporaryDirectory("operator")
        databasePath = try readme.setting("LIVEACTIVITY_DB")
        configPath = "/etc/liveactivity/liveactivity.env"
        let keyPath = try readme.setting("APNS_KEY_PATH")
        let keyName = URL(fileURLWithPath: keyPath).deletingPathExtension().lastPathComponent
        let key = try TestKey(
            in: staging, name: keyName, keyID: readme.setting("APNS_KEY_ID"), teamID: readme.setting("APNS_TEAM_ID"),
            bundleID: readme.setting("APNS_BUNDLE_ID"))
        standIn = try StandInStack(key: key, label: "operator-standin")
        siteCertificate = staging.file("site-cert.pem")
        try layOutStaging()
    }

    /// A checkout as docs/INSTALL.md's commands expect it in the current folder.
    private func layOutStaging() throws {
        let files = FileManager.default
        try files.createDirectory(atPath: staging.file(".build/release"), withIntermediateDirectories: true)
        for program in ["liveactivity-fcgi", "liveactivity-sweep"] {
            try files.copyItem(atPath: product(program), toPath: staging.file(".build/release/" + program))
        }
        for folder in ["cron", "nginx", "systemd"] {
            try files.copyItem(atPath: packageRoot + "/" + folder, toPath: staging.file(folder))
        }
        let made = try HostCommand.run(
            [
                systemTool("openssl") ?? "/usr/bin/openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", staging.file("site-key.pem"), "-out", siteCertificate,
                "-days", "2", "-subj", "/CN=\(siteName)", "-addext", "subjectAltName=DNS:\(siteName)",
            ], scratch: staging.path)
        guard made.status == 0 else { throw SocketError("openssl req failed: \(made.output)") }
    }

    // MARK: - Commands as the operator and cron run them

    /// Runs docs/INSTALL.md's block `block` with `sh -ex` from the staging checkout; throws one line on failure.
    func run(_ block: ReadmeDeployment.Block, text: String? = nil) throws {
        let result = try HostCommand.shell(text ?? block.text, flags: ["-e", "-x"], in: staging.path, scratch: staging.path)
        guard result.status == 0 else {
            throw SocketError("docs/INSTALL.md step \(block.step) failed (exit \(result.status)): \(Self.tail(result.output))")
        }
    }

    /// Runs a root command line the way an operator types it.
    func root(_ script: String, in directory: String = "/root") throws -> HostOutput {
        try HostCommand.shell(script, in: directory, scratch: staging.path)
    }

    /// The crontab as installed by docs/INSTALL.md's step 4.
    func crontab() throws -> SystemCrontab { try SystemCrontab(path: "/etc/cron.d/liveactivity") }

    /// Runs a crontab entry as cron does: `/bin/sh -c` as the entry's user, from that user's home,
    /// with cron's small environment.
    func runAsCron(_ entry: SystemCrontab.Entry) throws -> HostOutput {
        try HostCommand.cron(entry, scratch: staging.path)
    }

    /// `liveactivity-sweep` once, from the crontab's own line.
    func sweepAsCron() throws -> HostOutput {
        try runAsCron(crontab().entry(running: "liveactivity-sweep"))
    }

    /// Starts nginx the Debian way (no systemd here): the `nginx` command, which daemonizes.
    func startNginx() throws {
        let started = try root("nginx")
        guard started.status == 0, waitUntil(timeout: 10, { self.nginxMaster != nil }) else {
            throw SocketError("nginx did not start (exit \(started.status)): \(Self.tail(started.output))")
        }
    }

    /// A SQL query against the database, as the sweep's user with the sqlite3 command line.
    func query(_ sql: String, as user: String = HostClaim.user) throws -> HostOutput {
        try HostCommand.shell(
            "sqlite3 -readonly \"$1\" \"$2\"", arguments: [databasePath, sql], as: user,
            environment: ["PATH": "/usr/bin:/bin"], scratch: staging.path)
    }

    // MARK: - The API over HTTPS on 443, as the app reaches it

    /// POSTs `body` to `path` on the site (127.0.0.1:443 under the site's name), from a loopback
    /// address of its own each time: nginx limits each client address to 5 requests/s.
    func post(_ path: String, _ body: String) -> (status: Int, body: String) {
        nextClient += 1
        let source = "127.0.\(nextClient / 250 + 1).\(nextClient % 250 + 2)"
        return curl(["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", body, "--interface", source], path)
    }

    /// GETs `path` from 127.0.0.1, which the monitoring routes allow.
    func get(_ path: String) -> (status: Int, body: String) { curl([], path) }

    private func curl(_ arguments: [String], _ path: String) -> (status: Int, body: String) {
        let bodyPath = staging.file("curl-body")
        try? FileManager.default.removeItem(atPath: bodyPath)
        let command =
            [
                systemTool("curl") ?? "/usr/bin/curl", "-sS", "--max-time", "5", "--cacert", siteCertificate, "--resolve",
                "\(siteName):443:127.0.0.1", "-o", bodyPath, "-w", "%{http_code}",
            ] + arguments + ["https://\(siteName)\(path)"]
        guard let result = try? HostCommand.run(command, environment: [:], timeout: 10, scratch: staging.path) else {
            return (-1, "curl did not run")
        }
        // -w prints the status last; curl's own error (stderr) comes before it.
        let status = Int(result.output.suffix(3)) ?? -1
        let body = (try? String(contentsOfFile: bodyPath, encoding: .utf8)) ?? ""
        return status > 0 ? (status, body) : (-1, result.output)
    }

    /// Registers a new token; remembers it when the answer is 200.
    @discardableResult
    func registerNewToken(type: String = "charging") -> (status: Int, body: String) {
        let token = testToken(900_000 + nextToken)
        nextToken += 1
        let answer = post("/wakeup", "{\"pushToken\":\"\(token)\",\"activityType\":\"\(type)\"}")
        if answer.status == 200 {
            acknowledged.append(token)
            acknowledgedEver += 1
        }
        return answer
    }

    /// Registrations answered 200 over the whole run.
    var registered: Int { acknowledgedEver }
    private var acknowledgedEver = 0

    /// The database was deleted on purpose: what it held is no longer owed.
    func forgetAcknowledged() { acknowledged.removeAll() }

    // MARK: - What is running, and what it wrote

    var nginxMaster: Int32? {
        HostProcesses.pid(inFile: "/run/nginx.pid").flatMap { HostProcesses.isGone($0) ? nil : $0 }
    }

    /// The supervisor named by the @reboot line's pid file, when it runs.
    var supervisor: Int32? {
        HostProcesses.pid(inFile: "/run/liveactivity-fcgi.pid").flatMap { HostProcesses.isGone($0) ? nil : $0 }
    }

    /// The supervisor's responder child, waiting up to `timeout` seconds for one.
    func responder(timeout: TimeInterval = 10) -> Int32? {
        var found: Int32?
        waitUntil(timeout: timeout) {
            found = self.supervisor.flatMap { childProcesses(of: $0).first }
            return found != nil
        }
        return found
    }

    /// The tokens stored now (read as the sweep's user: root would leave root-owned -shm files).
    func storedTokens() throws -> Set<String> {
        let result = try query("SELECT registration_token FROM push_targets WHERE push_kind = 'wake'")
        guard result.status == 0 else { throw SocketError("sqlite3 could not read the database: \(Self.tail(result.output))") }
        return Set(result.output.split(separator: "\n").map(String.init))
    }

    func log(_ name: String) -> String {
        (try? String(contentsOfFile: "/var/log/liveactivity/" + name, encoding: .utf8)) ?? ""
    }

    /// The last lines of `text`, on one line.
    static func tail(_ text: String, lines: Int = 4) -> String {
        text.split(separator: "\n").suffix(lines).joined(separator: " | ")
    }
}
