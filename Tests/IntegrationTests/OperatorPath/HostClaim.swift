import Foundation
import TestSupport

/// The operator-path tests' claim on this host (docs/INSTALL.md's deployment by hand, and the Debian
/// package): a lock so no two runs ever use the host at once, the checks that it touches no real
/// deployment, and a marker file naming everything it will create, so that teardown - after
/// success, failure, or a run that died - removes exactly that (purging the package first).
struct HostClaim {
    static let lockPath = "/run/lock/liveactivity-operator-path.lock"
    static let markerPath = "/var/lib/liveactivity-operator-path.created"

    /// The deployment's own paths (README, cron/, nginx/): none may exist before the test.
    static let deploymentPaths =
        [
            "/opt/liveactivity", "/etc/liveactivity", "/var/lib/liveactivity", "/var/lib/liveactivity-sweep",
            "/var/log/liveactivity",
            "/etc/cron.d/liveactivity", "/etc/logrotate.d/liveactivity", "/etc/nginx/snippets/liveactivity-locations.conf",
            "/etc/nginx/snippets/liveactivity-fastcgi.conf", "/etc/nginx/sites-available/liveactivity",
            "/etc/nginx/sites-enabled/liveactivity", "/run/liveactivity-fcgi.sock", "/run/liveactivity-fcgi.pid",
            "/var/log/nginx/liveactivity.access.log", "/var/log/nginx/liveactivity.error.log",
            // The package's own files, and what its install sets aside from a hand-made deployment.
            "/usr/bin/liveactivity-fcgi", "/usr/bin/liveactivity-sweep", "/usr/share/doc/liveactivity",
            "/etc/nginx/conf.d/liveactivity.conf", "/etc/nginx/snippets/liveactivity.conf",
            "/etc/nginx/snippets/liveactivity-fastcgi-pass.conf", "/etc/cron.d/liveactivity.dpkg-old",
            "/etc/logrotate.d/liveactivity.dpkg-old",
        ] + handMadeUnits.flatMap { ["/etc/systemd/system/" + $0, "/etc/systemd/system/\($0).dpkg-old"] }
        + handMadeUnitLinks + PackageHost.nginxLogRotations
    /// The shipped units, as docs/INSTALL.md's systemd way by hand copies them into /etc/systemd/system.
    static let handMadeUnits = [
        "liveactivity-fcgi.socket", "liveactivity-fcgi.service", "liveactivity-sweep.service", "liveactivity-sweep.timer",
    ]
    /// The links `systemctl enable` makes for them (the package's point to /lib/systemd/system).
    static let handMadeUnitLinks = [
        "/etc/systemd/system/sockets.target.wants/liveactivity-fcgi.socket",
        "/etc/systemd/system/multi-user.target.wants/liveactivity-fcgi.service",
        "/etc/systemd/system/timers.target.wants/liveactivity-sweep.timer",
    ]
    static let packageName = "liveactivity"
    static let user = "liveactivity"
    static let webUser = "www-data"

    private let lockDescriptor: Int32

    /// Takes the lock (waiting up to `patience` seconds for another run), cleans up after a run
    /// that died, and checks the host is free. Returns why not, as one line, when it cannot run.
    static func take(siteName: String, patience: TimeInterval = 600) -> Result<HostClaim, SkipReason> {
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return .failure(SkipReason("cannot open \(lockPath): \(String(cString: strerror(errno)))")) }
        let locked = waitUntil(timeout: patience) { flock(descriptor, LOCK_EX | LOCK_NB) == 0 }
        guard locked else {
            close(descriptor)
            return .failure(SkipReason("another operator-path run has held \(lockPath) for \(Int(patience / 60)) minutes"))
        }
        let claim = HostClaim(lockDescriptor: descriptor)
        if FileManager.default.fileExists(atPath: markerPath) { claim.tearDown() }
        if let reason = hostIsBusy(siteName: siteName) {
            claim.release()
            return .failure(reason)
        }
        return .success(claim)
    }

    /// Why this host cannot be used, or nil.
    private static func hostIsBusy(siteName: String) -> SkipReason? {
        for tool in ["nginx", "spawn-fcgi", "setpriv", "runuser", "adduser", "gpasswd", "userdel", "curl", "sqlite3"]
        where systemTool(tool) == nil {
            return SkipReason("\(tool) is not installed (scripts/install-deps)")
        }
        if let pid = HostProcesses.pid(inFile: "/run/nginx.pid"), !HostProcesses.isGone(pid) {
            return SkipReason("a system nginx is running (pid \(pid)); the test starts and stops its own")
        }
        for port in [80, 443] where !portIsFree(port) {
            return SkipReason("port \(port) is taken; the shipped site and Debian's default need 80 and 443")
        }
        if getpwnam(user) != nil || getgrnam(user) != nil {
            return SkipReason("user or group '\(user)' exists: this host has a real deployment, which the test never touches")
        }
        if let state = packageState() {
            return SkipReason(
                "the package \(packageName) is known to dpkg here (\(state)): a real deployment, which the test never touches")
        }
        let taken = (deploymentPaths + ["/etc/letsencrypt/live/" + siteName]).first { FileManager.default.fileExists(atPath: $0) }
        if let taken {
            return SkipReason("\(taken) exists: this host has a real deployment, which the test never touches")
        }
        return nil
    }

    /// dpkg's status of the package (`install ok installed`, `deinstall ok config-files` ...), or
    /// nil when dpkg knows nothing of it.
    static func packageState() -> String? {
        let query = try? HostCommand.run(
            [systemTool("dpkg-query") ?? "/usr/bin/dpkg-query", "-W", "-f=${Status}", packageName],
            scratch: NSTemporaryDirectory())
        guard let query, query.status == 0, !query.output.isEmpty, !query.output.hasSuffix("not-installed") else {
            return nil
        }
        return query.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// True when nothing listens on `port`, on IPv4's or IPv6's any-address (nginx binds both).
    private static func portIsFree(_ port: Int) -> Bool {
        var one: Int32 = 1
        let v4 = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(v4) }
        setsockopt(v4, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        let boundV4 = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(v4, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let v6 = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        defer { if v6 >= 0 { close(v6) } }
        guard v6 >= 0 else { return boundV4 == 0 }
        setsockopt(v6, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(v6, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size))
        var address6 = sockaddr_in6()
        address6.sin6_family = sa_family_t(AF_INET6)
        address6.sin6_port = UInt16(port).bigEndian
        let boundV6 = withUnsafePointer(to: &address6) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(v6, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        }
        return boundV4 == 0 && (boundV6 == 0 || errno == EADDRNOTAVAIL || errno == EAFNOSUPPORT)
    }

    /// Writes the marker before anything is created: what teardown removes.
    func recordCreations(siteName: String) throws {
        var lines = ["purge " + Self.packageName] + Self.deploymentPaths.map { "remove " + $0 }
        lines.append("remove /etc/letsencrypt/live/" + siteName)
        if !FileManager.default.fileExists(atPath: "/etc/letsencrypt") { lines.append("remove /etc/letsencrypt") }
        lines.append("remove /run/nginx.pid")
        try (lines.joined(separator: "\n") + "\n").write(toFile: Self.markerPath, atomically: true, encoding: .utf8)
    }

    /// Adds `path` to what teardown removes; call it before creating `path`, and only for a path
    /// that did not exist.
    func recordCreation(of path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: Self.markerPath))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("remove \(path)\n".utf8))
    }

    /// Stops every process of the deployment and the test's nginx, purges the package, removes
    /// the users and every path the marker names, then the marker. Safe to run twice; stops at
    /// nothing.
    func tearDown() {
        var doomed: [Int32] = []
        for (pidFile, name) in [("/run/liveactivity-fcgi.pid", "liveactivity-fcgi"), ("/run/nginx.pid", "nginx")] {
            if let pid = HostProcesses.pid(inFile: pidFile), HostProcesses.commandLine(pid).contains(name) {
                doomed += HostProcesses.tree(of: pid)
            }
        }
        // Whatever runs from /opt/liveactivity or the package's programs is ours: neither existed
        // before the test; so are the units' stand-ins on the package's socket.
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry),
                let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(entry)/exe")
            else { continue }
            let ours =
                exe.hasPrefix("/opt/liveactivity/") || exe.hasPrefix("/usr/bin/liveactivity-")
                || (exe.hasSuffix("/systemd-socket-activate")
                    && HostProcesses.commandLine(pid).contains("/run/liveactivity-fcgi"))
            if ours { doomed += HostProcesses.tree(of: pid) }
        }
        HostProcesses.kill(doomed)

        let scratch = NSTemporaryDirectory()
        let marker = (try? String(contentsOfFile: Self.markerPath, encoding: .utf8)) ?? ""
        if marker.contains("purge " + Self.packageName + "\n"), Self.packageState() != nil {
            var environment = HostCommand.rootEnvironment
            environment["DEBIAN_FRONTEND"] = "noninteractive"
            // apt-get, not dpkg: it waits for dpkg's lock while another apt run holds it.
            _ = try? HostCommand.run(
                [
                    systemTool("apt-get") ?? "/usr/bin/apt-get", "purge", "-y", "-o", "DPkg::Lock::Timeout=300",
                    Self.packageName,
                ], environment: environment, timeout: 400, scratch: scratch)
            // A package left half-installed, which apt declines to touch.
            if Self.packageState() != nil {
                _ = try? HostCommand.run(
                    [systemTool("dpkg") ?? "/usr/bin/dpkg", "--purge", Self.packageName], environment: environment,
                    timeout: 300, scratch: scratch)
            }
        }
        if getgrnam(Self.user) != nil {
            _ = try? HostCommand.run(
                [systemTool("gpasswd") ?? "/usr/bin/gpasswd", "-d", Self.webUser, Self.user], scratch: scratch)
        }
        if getpwnam(Self.user) != nil {
            _ = try? HostCommand.run([systemTool("userdel") ?? "/usr/sbin/userdel", Self.user], scratch: scratch)
        }
        if getgrnam(Self.user) != nil {
            _ = try? HostCommand.run([systemTool("groupdel") ?? "/usr/sbin/groupdel", Self.user], scratch: scratch)
        }

        for line in marker.split(separator: "\n") where line.hasPrefix("remove /") {
            try? FileManager.default.removeItem(atPath: String(line.dropFirst("remove ".count)))
        }
        try? FileManager.default.removeItem(atPath: Self.markerPath)
    }

    /// Lets another run take the host.
    func release() { close(lockDescriptor) }
}

/// Why the operator-path test does not run here, as the one line it prints.
struct SkipReason: Error, CustomStringConvertible {
    let description: String
    init(_ reason: String) { description = "operator path: skipped: " + reason }
}
