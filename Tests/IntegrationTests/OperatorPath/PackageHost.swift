import Foundation
import TestSupport

/// This host with the Debian package, as docs/INSTALL.md's "With the Debian package" has an operator run
/// it: apt, the settings file, the cron file's lines run as cron runs them, the local APNs
/// stand-in in Apple's place and a self-signed certificate at certbot's paths.
final class PackageHost {
    static let configPath = "/etc/liveactivity/liveactivity.conf"
    static let databasePath = "/var/lib/liveactivity/liveactivity.sqlite"
    static let logFolder = "/var/log/liveactivity"
    static let programs = ["/usr/bin/liveactivity-fcgi", "/usr/bin/liveactivity-sweep"]
    /// The C libraries' packages the programs load (libfcgi and SQLite at their start, libcurl,
    /// libcrypto and libpq when a run needs them): the package's Depends name each, and so does
    /// docs/INSTALL.md's list for a host by hand.
    static let libraryPackages = ["libfcgi0ldbl", "libsqlite3-0", "libcurl4", "libssl3", "libpq5"]
    /// nginx's logs of the package's snippet (its `access_log` and `error_log` lines).
    static let nginxLogs = ["/var/log/nginx/liveactivity.access.log", "/var/log/nginx/liveactivity.error.log"]
    /// What nginx's own log rotation (/etc/logrotate.d/nginx) makes of them after a few days.
    static let nginxLogRotations = [
        "/var/log/nginx/liveactivity.access.log.1", "/var/log/nginx/liveactivity.access.log.2.gz",
        "/var/log/nginx/liveactivity.error.log.1",
    ]

    let readme: ReadmeDeployment
    let siteName: String
    let staging: TemporaryDirectory
    let standIn: StandInStack
    let site: SiteClient
    let certificate: String

    /// A host of its own: a staging folder with docs/INSTALL.md's key name and the site's certificate.
    convenience init(readme: ReadmeDeployment, siteName: String) throws {
        let staging = TemporaryDirectory("package")
        let key = try TestKey(
            in: staging, name: "AuthKey_ABC123DEFG", keyID: "ABC123DEFG", teamID: "DEF123GHIJ",
            bundleID: "com.example.betterblue")
        let standIn = try StandInStack(key: key, label: "package-standin")
        let certificate = staging.file("site-cert.pem")
        try Self.makeCertificate(certificate, key: staging.file("site-key.pem"), for: siteName, scratch: staging.path)
        self.init(readme: readme, siteName: siteName, staging: staging, standIn: standIn, certificate: certificate)
    }

    /// A self-signed pair for `siteName`, as the test's stand-in for what certbot gets.
    static func makeCertificate(_ certificate: String, key: String, for siteName: String, scratch: String) throws {
        let made = try HostCommand.run(
            [
                systemTool("openssl") ?? "/usr/bin/openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", certificate,
                "-days", "2", "-subj", "/CN=\(siteName)", "-addext", "subjectAltName=DNS:\(siteName)",
            ], scratch: scratch)
        guard made.status == 0 else { throw SocketError("openssl req failed: \(made.output)") }
    }

    /// The package on a host that another deployment already set up (the hand-made one).
    init(
        readme: ReadmeDeployment, siteName: String, staging: TemporaryDirectory, standIn: StandInStack, certificate: String
    ) {
        self.readme = readme
        self.siteName = siteName
        self.staging = staging
        self.standIn = standIn
        self.certificate = certificate
        site = SiteClient(siteName: siteName, certificate: certificate, scratch: staging.path)
    }

    // MARK: - apt and dpkg

    /// Runs a root command line; apt waits for dpkg's lock (other engineers' apt runs) and answers
    /// its questions yes, as the operator at the terminal would. With `startsAllowed`, a host
    /// whose policy-rc.d forbids starting services (a container) lets this one command start
    /// them, in a mount namespace of its own: the host's policy stays as it is.
    func root(_ script: String, in directory: String = "/root", startsAllowed: Bool = false) throws -> HostOutput {
        let aptConfig = staging.file("apt.conf")
        if !FileManager.default.fileExists(atPath: aptConfig) {
            try "DPkg::Lock::Timeout \"300\";\nAPT::Get::Assume-Yes \"true\";\n".write(
                toFile: aptConfig, atomically: true, encoding: .utf8)
        }
        var environment = HostCommand.rootEnvironment
        environment["APT_CONFIG"] = aptConfig
        environment["DEBIAN_FRONTEND"] = "noninteractive"
        guard startsAllowed, Self.policyForbidsStarts else {
            return try HostCommand.shell(script, in: directory, environment: environment, timeout: 600, scratch: staging.path)
        }
        let allow = staging.file("policy-rc.d")
        try "#!/bin/sh\nexit 0\n".write(toFile: allow, atomically: true, encoding: .utf8)
        chmod(allow, 0o755)
        let lifted = "mount --bind \"$1\" /usr/sbin/policy-rc.d || exit 97; shift; exec /bin/sh -c \"$1\""
        return try HostCommand.run(
            [
                systemTool("unshare") ?? "/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c",
                "cd \"$1\" && shift && " + lifted, "sh", directory, allow, script,
            ],
            environment: environment, timeout: 600, scratch: staging.path)
    }

    /// True when /usr/sbin/policy-rc.d forbids starting the responder (exit 101).
    static var policyForbidsStarts: Bool {
        let policy = "/usr/sbin/policy-rc.d"
        guard FileManager.default.isExecutableFile(atPath: policy) else { return false }
        return (try? HostCommand.run([policy, "liveactivity-fcgi", "start"], scratch: NSTemporaryDirectory()))?.status == 101
    }

    /// True when this host runs systemd as PID 1 (the units serve; the cron lines stand down).
    static var systemdRuns: Bool { FileManager.default.fileExists(atPath: "/run/systemd/system") }

    /// dpkg's status and version of the package ("install ok installed 1.0.0"), or nil.
    var packageStatus: String? {
        let query = try? HostCommand.run(
            [systemTool("dpkg-query") ?? "/usr/bin/dpkg-query", "-W", "-f=${Status} ${Version}", HostClaim.packageName],
            scratch: staging.path)
        return query.flatMap { $0.status == 0 ? $0.output.trimmingCharacters(in: .whitespacesAndNewlines) : nil }
    }

    /// The package's files as dpkg lists them.
    func packageFiles() throws -> [String] {
        let listed = try HostCommand.run(
            [systemTool("dpkg-query") ?? "/usr/bin/dpkg-query", "-L", HostClaim.packageName], scratch: staging.path)
        return listed.output.split(separator: "\n").map(String.init)
    }

    // MARK: - cron's lines, as cron runs them

    func crontab() throws -> SystemCrontab { try SystemCrontab(path: "/etc/cron.d/liveactivity") }

    /// The line cron runs every minute: the sweep.
    func sweepEntry() throws -> SystemCrontab.Entry {
        guard let entry = try crontab().entries.first(where: { $0.schedule == "* * * * *" }) else {
            throw SocketError("/etc/cron.d/liveactivity has no line for every minute")
        }
        return entry
    }

    func sweepAsCron() throws -> HostOutput { try HostCommand.cron(sweepEntry(), scratch: staging.path) }

    /// cron's sweep line started as cron starts it (`/bin/sh -c` from root's home, cron's small
    /// environment), without waiting for its end; its output in the staging folder.
    func sweepAsCronInTheBackground() throws -> ChildProcess {
        let entry = try sweepEntry()
        return try ChildProcess(
            "/bin/sh", ["-c", "cd /root && exec /bin/sh -c \"$1\"", "sh", entry.command],
            environment: ["HOME": "/root", "LOGNAME": "root", "PATH": "/usr/bin:/bin", "SHELL": "/bin/sh"],
            outputPath: staging.file("sweep-in-background.out"))
    }

    func bootAsCron() throws -> HostOutput { try HostCommand.cron(crontab().reboot(), scratch: staging.path) }

    // MARK: - What runs, and what it wrote

    /// The supervisor the @reboot line (or postinst) started, when it runs.
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

    /// Every living process running one of the package's programs.
    var programProcesses: [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
            guard let pid = Int32(entry), !HostProcesses.isGone(pid),
                let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(entry)/exe"),
                Self.programs.contains(where: { exe.hasPrefix($0) })
            else { return nil }
            return pid
        }
    }

    /// `kill -TERM` of the supervisor, as docs/INSTALL.md says; throws unless all of it is gone in 10 s.
    func stopResponder() throws {
        guard let supervisor else { return }
        let processes = HostProcesses.tree(of: supervisor)
        kill(supervisor, SIGTERM)
        guard waitUntil(timeout: 10, { processes.allSatisfy(HostProcesses.isGone) }) else {
            throw SocketError("the supervisor \(supervisor) or its responder still runs 10 s after SIGTERM")
        }
    }

    func log(_ name: String) -> String {
        (try? String(contentsOfFile: Self.logFolder + "/" + name, encoding: .utf8)) ?? ""
    }

    /// A SQL query against the database, as the sweep's user with the sqlite3 command line.
    func query(_ sql: String) throws -> HostOutput {
        try HostCommand.shell(
            "sqlite3 -readonly \"$1\" \"$2\"", arguments: [Self.databasePath, sql], as: HostClaim.user,
            environment: ["PATH": "/usr/bin:/bin"], scratch: staging.path)
    }

    func storedTokens() throws -> Set<String> {
        let result = try query("SELECT registration_token FROM push_targets WHERE push_kind = 'wake'")
        guard result.status == 0 else { throw SocketError("sqlite3 could not read the database: \(result.output)") }
        return Set(result.output.split(separator: "\n").map(String.init))
    }

    /// `PRAGMA user_version`: the schema the database is at.
    func schemaVersion() throws -> Int {
        let result = try query("PRAGMA user_version")
        guard result.status == 0, let version = Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw SocketError("sqlite3 could not read user_version: \(result.output)")
        }
        return version
    }

    /// The tokens the stand-in received a push for.
    func pushedTokens() throws -> Set<String> { Set(try standIn.state().received().map(\.deviceToken)) }

    // MARK: - The site

    /// Starts nginx the Debian way without systemd (the `nginx` command, which daemonizes).
    func startNginx() throws {
        let started = try root("nginx")
        guard started.status == 0, waitUntil(timeout: 10, { self.nginxMaster != nil }) else {
            throw SocketError("nginx did not start (exit \(started.status)): \(OperatorHost.tail(started.output))")
        }
    }

    var nginxMaster: Int32? {
        HostProcesses.pid(inFile: "/run/nginx.pid").flatMap { HostProcesses.isGone($0) ? nil : $0 }
    }

    /// Stops nginx (`nginx -s quit`), waiting up to 10 s for every process of it.
    func stopNginx() {
        guard let master = nginxMaster else { return }
        let processes = HostProcesses.tree(of: master)
        _ = try? root("nginx -s quit")
        if !waitUntil(timeout: 10, { processes.allSatisfy(HostProcesses.isGone) }) { HostProcesses.kill(processes) }
    }

    /// The site's certificate and key where certbot puts them for the site's name.
    func installSiteCertificate(claim: HostClaim) throws {
        let folder = "/etc/letsencrypt/live/" + siteName
        guard !FileManager.default.fileExists(atPath: folder + "/fullchain.pem") else { return }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: certificate, toPath: folder + "/fullchain.pem")
        try FileManager.default.copyItem(atPath: staging.file("site-key.pem"), toPath: folder + "/privkey.pem")
        chmod(folder + "/privkey.pem", 0o600)
    }

    /// Waits (bounded) until nginx listens on 443 after a reload.
    func waitForTheSite() throws {
        guard waitUntil(timeout: 20, { (try? RawSocket(port: 443, timeout: 1)) != nil }) else {
            throw SocketError("nginx did not listen on port 443 within 20 s of the reload")
        }
    }

    /// `APNS_HOST` and `APNS_CA_FILE` appended to the settings: pushes go to the stand-in, whose
    /// certificate the sweep's user can read.
    func pointSettingsAtStandIn() throws {
        let caPath = "/etc/liveactivity/apns-standin-ca.pem"
        try? FileManager.default.removeItem(atPath: caPath)
        try FileManager.default.copyItem(atPath: standIn.certificatePath, toPath: caPath)
        chmod(caPath, 0o644)
        try append("APNS_HOST=\(standIn.baseURL)\nAPNS_CA_FILE=\(caPath)\n", to: Self.configPath)
    }

    func append(_ text: String, to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
    }
}
