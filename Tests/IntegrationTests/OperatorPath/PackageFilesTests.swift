import Foundation
import TestSupport
import Testing

/// The Debian package's own files agree with the hand-made deployment's and with docs/, and its
/// nginx files work beside a hand-made site (SPEC 7 "Packaging"). Unlike the package life test,
/// these need no root: they read the files in debian/ and run nginx on a loopback port.
@Suite("Package files")
struct PackageFilesTests {
    /// The package's cron file is the hand-made crontab with the package's paths, each line
    /// behind a guard that makes it do nothing where systemd runs or once the program is gone
    /// (Debian policy 9.5).
    @Test func theCronFileIsTheHandMadeCrontabWithThePackagesPathsAndAGuardOnEachLine() throws {
        let handMade = try SystemCrontab(path: packageRoot + "/cron/liveactivity.crontab")
        let package = try SystemCrontab(path: packageRoot + "/debian/liveactivity.cron.d")
        #expect(package.entries.count == handMade.entries.count, "\(package.entries.count) lines, not \(handMade.entries.count)")
        for (shipped, ours) in zip(handMade.entries, package.entries) {
            let guardEnd = try #require(ours.command.range(of: " || exit 0; "), "no guard: \(ours.command)")
            let guardText = ours.command[..<guardEnd.lowerBound]
            #expect(guardText.contains("[ ! -d /run/systemd/system ]"), "\(ours.schedule): does not stand down under systemd")
            let program = try #require(guardText.firstMatch(of: /\[ -x (\/usr\/bin\/liveactivity-[a-z]+) \]/)?.output.1)
            #expect(
                ours.command[guardEnd.upperBound...].contains(program) || ours.schedule == "17 * * * *",
                "\(ours.schedule): the guard checks \(program), which the line does not run")
            let expected =
                shipped.command
                .replacingOccurrences(of: "/opt/liveactivity/bin/", with: "/usr/bin/")
                .replacingOccurrences(of: "/etc/liveactivity/liveactivity.env", with: "/etc/liveactivity/liveactivity.conf")
                .replacingOccurrences(of: "test -x /usr/sbin/logrotate && ", with: "")
            #expect(
                ours.schedule == shipped.schedule && ours.user == shipped.user
                    && String(ours.command[guardEnd.upperBound...]) == expected,
                "the package's '\(ours.schedule)' line differs from cron/'s: \(ours.command)")
        }
    }

    /// Every setting docs/CONFIGURATION.md's table names is described in the settings file the
    /// package installs (the test-only clock offset aside), and the file sets the database and
    /// names the key's place.
    @Test func theSettingsFileDescribesEverySettingAndNamesTheKey() throws {
        let section = try Documents.section("## The settings", in: "docs/CONFIGURATION.md")
        let names = Set(section.matches(of: /`((?:LIVEACTIVITY|APNS)_[A-Z_]+)`/).map { String($0.output.1) })
            .subtracting(["LIVEACTIVITY_TEST_CLOCK_OFFSET", "LIVEACTIVITY_CONFIG"])
        #expect(names.count > 15, "docs/CONFIGURATION.md's table names \(names.count) settings")
        let settings = try String(contentsOfFile: packageRoot + "/debian/conf/liveactivity.conf", encoding: .utf8)
        let lines = settings.split(separator: "\n")
        let missing = names.filter { name in !lines.contains { $0.hasPrefix(name + "=") || $0.hasPrefix("#" + name + "=") } }
        #expect(missing.isEmpty, "the settings file does not describe \(missing.sorted())")
        #expect(lines.contains("LIVEACTIVITY_DB=/var/lib/liveactivity/liveactivity.sqlite"))
        #expect(lines.contains { $0.hasPrefix("APNS_KEY_PATH=/etc/liveactivity/") }, "the settings name no key file")
        #expect(!lines.contains { $0.hasPrefix("APNS_KEY=") }, "the settings file holds a key")
    }

    /// `scripts/install-deps --build-only` (what scripts/package runs) installs debian/control's
    /// Build-Depends and the packaging tools, and none of the test stack (issue 33).
    @Test func theBuildOnlyDependenciesAreTheBuildDependsAndNoTestTool() throws {
        let script = try Documents.text("scripts/install-deps")
        let list = try #require(script.firstMatch(of: /build_packages=\(([^)]*)\)/)?.output.1, "no build_packages list")
        let build = Set(list.split(whereSeparator: \.isWhitespace).map(String.init))
        let control = try Documents.text("debian/control")
        let field = try #require(control.firstMatch(of: /Build-Depends:((?:.|\n )*)/)?.output.1, "no Build-Depends")
        let depends = field.split(separator: ",").compactMap { $0.split(whereSeparator: \.isWhitespace).first.map(String.init) }
            .map { $0 == "debhelper-compat" ? "debhelper" : $0 }
        #expect(depends.count >= 6, "\(depends)")
        #expect(Set(depends).isSubset(of: build), "missing from --build-only: \(Set(depends).subtracting(build).sorted())")
        #expect(build.isSuperset(of: ["build-essential", "dpkg-dev", "debhelper"]), "\(build.sorted())")
        let tests: Set = ["postgresql", "chromium", "lintian", "nginx-light", "python3-jwt", "strace"]
        #expect(build.isDisjoint(with: tests), "--build-only pulls \(build.intersection(tests).sorted())")
        #expect(try Documents.text("scripts/package").contains("scripts/install-deps --build-only"))
    }

    /// debian/nginx-files makes the package's nginx files from nginx/. The package's http-level
    /// part loads beside a hand-made site (its own names, as when the package is installed over a
    /// hand-made deployment), and a server with the package's snippet takes registrations from a
    /// real responder and answers nginx's own refusals as JSON.
    @Test(.enabled(if: systemTool("nginx") != nil, "nginx is not installed"))
    func thePackagesNginxFilesServeBesideAHandMadeSite() throws {
        let folder = TemporaryDirectory("package-nginx")
        let made = try runCommand("/bin/sh", [packageRoot + "/debian/nginx-files", packageRoot + "/nginx", folder.file("made")])
        try #require(made.status == 0, "debian/nginx-files: \(made.stderr)")
        let prefix = folder.file("nginx")
        let socket = folder.file("fcgi.sock")
        let database = folder.file("registrations.sqlite")
        let certificate = try TestCertificate(in: folder)
        try FileManager.default.createDirectory(atPath: prefix + "/snippets", withIntermediateDirectories: true)
        // As on a host: the package's files and the hand-made site's snippets, side by side,
        // every path of the host moved into the test's folder.
        func place(_ source: String, _ target: String) throws {
            let text = try String(contentsOfFile: source, encoding: .utf8)
                .replacingOccurrences(of: "/run/liveactivity-fcgi.sock", with: socket)
                .replacingOccurrences(of: "/var/log/nginx/", with: prefix + "/")
                .replacingOccurrences(
                    of: "/etc/letsencrypt/live/wakeup.example.org/fullchain.pem", with: certificate.certificatePath
                )
                .replacingOccurrences(of: "/etc/letsencrypt/live/wakeup.example.org/privkey.pem", with: certificate.keyPath)
            try text.write(toFile: prefix + "/" + target, atomically: true, encoding: .utf8)
        }
        try place(folder.file("made/conf.d/liveactivity.conf"), "package-http.conf")
        try place(folder.file("made/snippets/liveactivity.conf"), "snippets/liveactivity.conf")
        try place(folder.file("made/snippets/liveactivity-fastcgi-pass.conf"), "snippets/liveactivity-fastcgi-pass.conf")
        for name in ["liveactivity-locations.conf", "liveactivity-fastcgi.conf"] {
            try place(packageRoot + "/nginx/" + name, "snippets/" + name)
        }
        try place(packageRoot + "/nginx/liveactivity-site.conf", "hand-made-site.conf")
        let handMadePort = freePort()
        let site = try String(contentsOfFile: prefix + "/hand-made-site.conf", encoding: .utf8)
            .replacingOccurrences(of: "listen [::]:443 ssl http2;", with: "")
            .replacingOccurrences(of: "listen 443 ssl http2;", with: "listen 127.0.0.1:\(handMadePort) ssl;")
        try site.write(toFile: prefix + "/hand-made-site.conf", atomically: true, encoding: .utf8)

        let responder = try ChildProcess(
            product("liveactivity-fcgi"), ["--socket", socket, "--workers", "4"],
            environment: ["LIVEACTIVITY_DB": database, "PATH": "/usr/bin:/bin"], outputPath: folder.file("responder.log"))
        defer { responder.stop() }
        try #require(waitUntil(timeout: 60) { (try? RawSocket(unixPath: socket, timeout: 1)) != nil }, "\(responder.output)")

        let (port, nginx) = try LoopbackNginx.start(prefix: prefix, outputPath: folder.file("nginx.out")) { port in
            """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(prefix)/nginx.pid;
            events { worker_connections 64; }
            http {
                client_body_temp_path \(prefix)/client_body_temp;
                fastcgi_temp_path \(prefix)/fastcgi_temp;
                proxy_temp_path \(prefix)/proxy_temp;
                uwsgi_temp_path \(prefix)/uwsgi_temp;
                scgi_temp_path \(prefix)/scgi_temp;
                include \(prefix)/package-http.conf;
                include \(prefix)/hand-made-site.conf;
                server {
                    listen 127.0.0.1:\(port);
                    include snippets/liveactivity.conf;
                }
            }
            """
        }
        defer { nginx.stop() }
        let token = testToken(31_337)
        let registered = try HTTPClient.request(
            port: port, method: "POST", path: "/wakeup", headers: [("Content-Type", "application/json")],
            body: Array("{\"pushToken\":\"\(token)\"}".utf8))
        #expect(registered.status == 200 && registered.text == "{\"success\":true}", "\(registered)")
        let unknown = try HTTPClient.request(port: port, method: "GET", path: "/elsewhere")
        #expect(unknown.status == 404 && unknown.text == "{\"error\":\"Not found\"}", "\(unknown)")
        let health = try HTTPClient.request(port: port, method: "GET", path: "/wakeup/health")
        #expect(health.status == 200 && health.text.contains("\"registrations\":1"), "\(health)")
        let access = (try? String(contentsOfFile: prefix + "/liveactivity.access.log", encoding: .utf8)) ?? ""
        #expect(access.contains("\"POST /wakeup HTTP/1.1\" 200"), "the snippet's access log: \(access)")
        #expect(!access.contains("127.0.0.1"), "the snippet's access log holds a client address: \(access)")
    }
}
