import Foundation
import LiveActivityDomain
import TestSupport
import Testing

/// Issue 35: libcurl, libcrypto and libpq are opened at run time, by the runs that need them. An
/// idle cron run and a responder on SQLite map none of them (nor the ~35 libraries libcurl
/// brings); a sweep with something to send opens libcurl, and libcrypto to sign its token; a
/// program on PostgreSQL opens libpq. Which libraries a process loads is what the dynamic loader
/// reports (`LD_DEBUG=files`); a library that cannot be loaded is one line, never a crash.
@Suite("Libraries opened at run time")
struct LibraryLoadingTests {
    /// The libraries the loader reported loading, by file name (`libcurl.so.4`), from a run's stderr.
    static func loaded(_ stderr: String) -> Set<String> {
        Set(
            stderr.split(separator: "\n").compactMap { line in
                guard let start = line.range(of: "file=") else { return nil }
                let name = line[start.upperBound...].prefix { $0 != " " && $0 != "[" && $0 != ";" }
                return name.split(separator: "/").last.map(String.init)
            })
    }

    static func has(_ libraries: Set<String>, _ name: String) -> Bool { libraries.contains { $0.hasPrefix(name + ".so") } }

    /// The lines the program itself wrote, without the loader's.
    static func ownLines(_ stderr: String) -> [Substring] {
        stderr.split(separator: "\n").filter { $0.contains("liveactivity-sweep: ") || $0.contains("liveactivity-fcgi: ") }
    }

    @Test(arguments: TestEngine.real)
    func anIdleSweepMapsNoneAndASweepWithAPushOpensLibcurlAndLibcrypto(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        let idle = try fixture.sweep(["LD_DEBUG": "files"])
        #expect(idle.status == 0, "\(Self.ownLines(idle.stderr))")
        #expect(SweepFixture.field("sent", in: idle.stdout) == "0", "\(idle.stdout)")
        let idleLibraries = Self.loaded(idle.stderr)
        #expect(Self.has(idleLibraries, "libsqlite3"), "the loader's report is read: \(idleLibraries.sorted())")
        // On PostgreSQL libpq is the engine, and it brings libcrypto for TLS to the server (and,
        // through LDAP, GnuTLS): only libcurl's own are left out there.
        let notMapped =
            ["libcurl", "libnghttp2", "librtmp", "libssh2"]
            + (engine == .sqlite ? ["libcrypto", "libssl", "libgnutls", "libldap", "libpq"] : [])
        for library in notMapped {
            #expect(!Self.has(idleLibraries, library), "an idle run loads \(library): \(idleLibraries.sorted())")
        }
        #expect(Self.has(idleLibraries, "libpq") == (engine == .postgres), "\(idleLibraries.sorted())")

        try fixture.register([1])
        let sending = try fixture.sweep(["LD_DEBUG": "files"])
        #expect(sending.status == 0, "\(Self.ownLines(sending.stderr))")
        #expect(SweepFixture.field("sent", in: sending.stdout) == "1", "\(sending.stdout)")
        let sendingLibraries = Self.loaded(sending.stderr)
        #expect(Self.has(sendingLibraries, "libcurl") && Self.has(sendingLibraries, "libcrypto"), "\(sendingLibraries.sorted())")
        #expect(try fixture.received(1).count == 1)
    }

    /// A due sweep whose libcurl cannot be loaded, or lacks a function, claims nothing and sends
    /// nothing: one line naming the library, exit 1, and the row still due at the next run. An
    /// idle run needs no libcurl and goes on. (A file of that name first on the loader's path
    /// stands in for a missing or broken library: an empty one, then SQLite's.)
    @Test(arguments: TestEngine.real)
    func aSweepWithoutLibcurlSaysSoInOneLineAndSendsNothing(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        let broken = TemporaryDirectory("nolibcurl")
        _ = try broken.write("libcurl.so.4", "")
        let without = ["LD_LIBRARY_PATH": broken.path]
        let idle = try fixture.sweep(without)
        #expect(idle.status == 0, "\(idle.stderr)")

        try fixture.register([2])
        let due = try fixture.sweep(without)
        #expect(due.status == 1, "\(due.stdout) \(due.stderr)")
        let lines = Self.ownLines(due.stderr)
        #expect(lines.count == 1, "\(due.stderr)")
        #expect(lines.first?.contains("libcurl.so.4 could not be loaded: ") == true, "\(due.stderr)")
        #expect(lines.first?.contains("nothing was sent") == true, "\(due.stderr)")
        #expect(isCrashFree(due.stderr))
        #expect(try fixture.received(2).isEmpty)

        // A library of that name without libcurl's functions (SQLite's, copied): the first one missing is named.
        let sqlite = try #require(
            ["/usr/lib/x86_64-linux-gnu/libsqlite3.so.0", "/lib/x86_64-linux-gnu/libsqlite3.so.0", "/usr/lib/libsqlite3.so.0"]
                .first { FileManager.default.fileExists(atPath: $0) }, "where libsqlite3 is")
        let other = TemporaryDirectory("wronglibcurl")
        // The file itself: a copied symbolic link would point nowhere, and the loader would go on to the real libcurl.
        let sqliteFile = URL(fileURLWithPath: sqlite).resolvingSymlinksInPath().path
        try FileManager.default.copyItem(atPath: sqliteFile, toPath: other.file("libcurl.so.4"))
        let wrong = try fixture.sweep(["LD_LIBRARY_PATH": other.path])
        #expect(wrong.status == 1, "\(wrong.stdout) \(wrong.stderr)")
        let wrongLines = Self.ownLines(wrong.stderr)
        #expect(wrongLines.count == 1, "\(wrong.stderr)")
        #expect(
            wrongLines.first?.contains("libcurl.so.4 could not be loaded: it has no function curl_easy_cleanup") == true,
            "\(wrong.stderr)")
        #expect(try fixture.received(2).isEmpty)

        let fixed = try fixture.sweep()
        #expect(fixed.status == 0, "\(fixed.stderr)")
        #expect(SweepFixture.field("sent", in: fixed.stdout) == "1", "\(fixed.stdout)")
    }

    /// The responder answers a registration as CGI: on SQLite with none of the three libraries
    /// mapped; on PostgreSQL with libpq opened (the control).
    @Test(arguments: TestEngine.real)
    func theResponderOpensLibpqOnlyForPostgreSQL(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "libraries")
        var environment = [
            "GATEWAY_INTERFACE": "CGI/1.1", "SERVER_PROTOCOL": "HTTP/1.1", "REQUEST_METHOD": "POST", "SCRIPT_NAME": "/wakeup",
            "PATH_INFO": "", "LIVEACTIVITY_DB": database.setting, "PATH": "/usr/bin:/bin", "LD_DEBUG": "files",
            "CONTENT_TYPE": "application/json",
        ]
        environment.merge(database.programEnvironment) { _, new in new }
        let body = registerBody(testToken(350))
        environment["CONTENT_LENGTH"] = String(body.utf8.count)
        let run = try runCommand(product("liveactivity-fcgi"), [], environment: environment, input: Array(body.utf8))
        #expect(run.status == 0 && run.stdout.contains("\"success\":true"), "\(run.stdout) \(Self.ownLines(run.stderr))")
        let libraries = Self.loaded(run.stderr)
        #expect(Self.has(libraries, "libfcgi"), "the loader's report is read: \(libraries.sorted())")
        #expect(!Self.has(libraries, "libcurl"), "\(libraries.sorted())")
        #expect(Self.has(libraries, "libpq") == (engine == .postgres), "\(libraries.sorted())")
        if engine == .sqlite {
            #expect(!Self.has(libraries, "libcrypto") && !Self.has(libraries, "libssl"), "\(libraries.sorted())")
        }
    }

    /// A PostgreSQL URI where libpq cannot be loaded: each program says so in one line naming
    /// the library and the setting, exit 2.
    @Test func aPostgreSQLURIWithoutLibpqIsOneLine() throws {
        let broken = TemporaryDirectory("nolibpq")
        _ = try broken.write("libpq.so.5", "")
        let environment = [
            "LIVEACTIVITY_DB": "postgresql://liveactivity@%2Frun%2Fnone/liveactivity", "LD_LIBRARY_PATH": broken.path,
            "PATH": "/usr/bin:/bin", "LIVEACTIVITY_SWEEP_DIR": broken.file("sweep"),
        ]
        for (program, arguments) in [
            ("liveactivity-fcgi", ["--socket", broken.file("fcgi.sock")]), ("liveactivity-sweep", ["stats"]),
        ] {
            let run = try runCommand(product(program), arguments, environment: environment, timeout: 30)
            #expect(run.status == 2, "\(program): \(run.stdout) \(run.stderr)")
            let lines = run.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(program): \(run.stderr)")
            #expect(
                lines.first?.contains(
                    "configuration: LIVEACTIVITY_DB names a PostgreSQL database, but libpq.so.5 could not be loaded: ") == true,
                "\(program): \(run.stderr)")
        }
    }
}
