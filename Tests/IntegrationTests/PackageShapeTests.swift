import Foundation
import TestSupport
import Testing

/// The layers hold in the manifest, in the sources and at link time. The domain has no C module
/// beneath it, and the APNs layers reach no SQLite; a source imports only targets its own target
/// declares (SwiftPM would let an undeclared import of an already built module through). Each built
/// executable names only the C libraries every run needs: libcurl, libcrypto and libpq are opened
/// at run time by the targets that use them (an idle sweep and a responder on SQLite map none of
/// them: `LibraryLoadingTests`), and the web-facing responder has no code that would open libcurl
/// or libcrypto, so it cannot sign or send a push even if it were compromised.
@Suite struct PackageShapeTests {
    /// The manifest as `swift package dump-package` prints it.
    func manifest() throws -> [String: Any] {
        let swift = try #require(
            ["/usr/bin/swift", "/opt/swift/usr/bin/swift"].first(where: FileManager.default.isExecutableFile)
                ?? systemTool("swift"), "swift is not installed")
        // A scratch folder of its own: the running `swift test` holds the package's `.build`.
        let scratch = TemporaryDirectory("manifest")
        let result = try runCommand(
            swift, ["package", "--package-path", packageRoot, "--scratch-path", scratch.path, "dump-package"], timeout: 300)
        try #require(result.status == 0, "dump-package: \(result.stderr)")
        return try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "not a JSON object")
    }

    /// The manifest's targets: each one's type (`system` for a C library) and direct dependencies.
    func manifestTargets(_ manifest: [String: Any]? = nil) throws -> [String: (type: String, dependencies: [String])] {
        let manifest = try manifest ?? self.manifest()
        var targets: [String: (type: String, dependencies: [String])] = [:]
        for target in manifest["targets"] as? [[String: Any]] ?? [] {
            let name = try #require(target["name"] as? String)
            let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
                dependency.values.compactMap { ($0 as? [Any])?.first as? String }.first
            }
            targets[name] = (target["type"] as? String ?? "", dependencies)
        }
        return targets
    }

    /// `name` and every target beneath it.
    func reach(_ name: String, in targets: [String: (type: String, dependencies: [String])]) -> Set<String> {
        var reached: Set<String> = []
        var queue = [name]
        while let next = queue.popLast() {
            guard reached.insert(next).inserted else { continue }
            queue += targets[next]?.dependencies ?? []
        }
        return reached
    }

    @Test func theDomainHasNoCModuleBeneathItAndTheAPNsLayersReachNoSQLite() throws {
        let targets = try manifestTargets()
        let cModules = Set(targets.filter { $0.value.type == "system" }.keys)
        #expect(cModules.isSuperset(of: ["CSQLite", "COpenSSL", "CCurl", "CFastCGI", "CPostgreSQL"]), "\(cModules.sorted())")
        #expect(targets["LiveActivityDomain"] != nil)
        #expect(reach("LiveActivityDomain", in: targets) == ["LiveActivityDomain", "SystemSupport"])
        #expect(reach("SystemSupport", in: targets) == ["SystemSupport"])
        #expect(reach("LiveActivityFigures", in: targets) == ["LiveActivityFigures", "LiveActivityDomain", "SystemSupport"])
        for layer in ["APNsJWT", "APNsHTTP2"] {
            let reached = reach(layer, in: targets)
            #expect(reached.contains("LiveActivityDomain"), "\(layer): \(reached.sorted())")
            #expect(!reached.contains("CSQLite") && !reached.contains("LiveActivityStore"), "\(layer): \(reached.sorted())")
        }
        #expect(!reach("liveactivity-fcgi", in: targets).contains { ["CCurl", "COpenSSL", "APNsJWT", "APNsHTTP2"].contains($0) })
        // PostgreSQL's client, like the wire, is one C library's layer and no more.
        #expect(reach("PostgresClient", in: targets) == ["PostgresClient", "CPostgreSQL", "SystemSupport"])
    }

    /// The library an iOS app adds (SPEC 7 "The app's side"): its product is its one target,
    /// which depends on nothing - no other target of this package, no C library - declares no
    /// linker or compiler setting, and imports Foundation alone (FoundationNetworking on Linux).
    @Test func theAppsLibraryReachesNoCLibraryAndNoOtherTarget() throws {
        let manifest = try manifest()
        let targets = try manifestTargets(manifest)
        let products = manifest["products"] as? [[String: Any]] ?? []
        let product = try #require(products.first { $0["name"] as? String == "LiveActivityWakeClient" }, "no such product")
        #expect((product["type"] as? [String: Any])?["library"] != nil, "\(product)")
        #expect(product["targets"] as? [String] == ["LiveActivityWakeClient"])
        #expect(reach("LiveActivityWakeClient", in: targets) == ["LiveActivityWakeClient"])
        #expect(targets["LiveActivityWakeClient"]?.type == "regular")
        let target = try #require(
            (manifest["targets"] as? [[String: Any]])?.first { $0["name"] as? String == "LiveActivityWakeClient" })
        #expect((target["settings"] as? [Any])?.isEmpty == true, "\(target)")
        let platforms = (manifest["platforms"] as? [[String: Any]] ?? []).compactMap { platform in
            (platform["platformName"] as? String).map { "\($0) \(platform["version"] as? String ?? "")" }
        }
        #expect(Set(platforms) == ["ios 16.0", "macos 13.0"], "\(platforms)")

        let folder = packageRoot + "/Sources/LiveActivityWakeClient"
        let files = try #require(FileManager.default.enumerator(atPath: folder))
        var checked = 0
        for case let file as String in files where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") where line.trimmingCharacters(in: .whitespaces).hasPrefix("import ") {
                let module = line.split(separator: " ").last.map(String.init) ?? ""
                #expect(["Foundation", "FoundationNetworking"].contains(module), "\(file) imports \(module)")
            }
            checked += 1
        }
        #expect(checked >= 5, "sources found: \(checked)")
    }

    @Test func everySourceImportsOnlyTheTargetsItsTargetDependsOn() throws {
        let targets = try manifestTargets()
        let sources = URL(fileURLWithPath: packageRoot + "/Sources")
        var checked = 0
        for name in targets.keys where targets[name]?.type == "regular" || targets[name]?.type == "executable" {
            let reached = Set(targets[name]?.dependencies ?? [])
            let folder = sources.appendingPathComponent(name)
            guard let files = FileManager.default.enumerator(atPath: folder.path) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") where line.hasPrefix("import ") || line.hasPrefix("@testable import ") {
                    let module = String(line.split(separator: " ").last ?? "")
                    if targets[module] != nil { #expect(reached.contains(module), "\(name)/\(file) imports \(module)") }
                }
                checked += 1
            }
        }
        #expect(checked > 50, "sources found: \(checked)")
    }

    /// The shared libraries `ldd` resolves for a built executable, by file name (`libcurl.so.4`).
    func linkedLibraries(_ executable: String) throws -> Set<String> {
        let ldd = try #require(systemTool("ldd"), "ldd is not installed")
        let result = try runCommand(ldd, [product(executable)])
        try #require(result.status == 0, "ldd \(executable): \(result.stderr)")
        let names = result.stdout.split(separator: "\n").compactMap { line in
            line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init)
        }
        return Set(names.map { $0.split(separator: "/").last.map(String.init) ?? $0 })
    }

    func links(_ libraries: Set<String>, _ name: String) -> Bool {
        libraries.contains { $0.hasPrefix(name + ".so") }
    }

    /// docs/ARCHITECTURE.md's table of the layers is the manifest's: every library and executable
    /// target listed once, with exactly its dependencies.
    @Test func theArchitectureTableIsTheManifest() throws {
        let targets = try manifestTargets()
        let text = try String(contentsOfFile: packageRoot + "/docs/ARCHITECTURE.md", encoding: .utf8)
        var listed: [String: Set<String>] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 2 else { continue }
            let names = { (cell: String) in
                Set(
                    cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map {
                        String($0.element)
                    })
            }
            guard let name = names(cells[0]).first, targets[name] != nil else { continue }
            #expect(listed[name] == nil, "\(name) listed twice")
            listed[name] = names(cells[1])
        }
        for (name, target) in targets where target.type == "regular" || target.type == "executable" {
            guard name != "TestSupport" else { continue }
            #expect(
                listed[name] == Set(target.dependencies),
                "\(name): documented \(listed[name]?.sorted() ?? []), declared \(target.dependencies.sorted())")
        }
    }

    /// One concurrency family (docs/ARCHITECTURE.md, "Locking"): no semaphore, Foundation lock
    /// or thread, and no libdispatch, in the programs or their tests. The Apple stand-ins are
    /// Apple's shapes, not ours.
    @Test func onlyTheOneConcurrencyFamilyIsUsed() throws {
        let forbidden = [
            "DispatchSemaphore", "DispatchGroup", "DispatchQueue", "import Dispatch", "NSLock", "NSCondition",
            "NSRecursiveLock", "Thread {", "Thread(", "Thread.detachNewThread",
        ]
        var checked = 0
        for root in ["Sources", "Tests"] {
            let folder = packageRoot + "/" + root
            let files = try #require(FileManager.default.enumerator(atPath: folder), "\(folder)")
            for case let file as String in files
            where file.hasSuffix(".swift") && !file.hasPrefix("Fixtures/AppleStandIns")
                && !file.hasSuffix("PackageShapeTests.swift")
            {
                let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
                for word in forbidden where text.contains(word) {
                    // `SystemThread(`, `TestThreads(` and the like are the family's own.
                    let ours = text.components(separatedBy: word).dropLast().allSatisfy { before in
                        before.last.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false
                    }
                    #expect(ours, "\(root)/\(file) names \(word)")
                }
                checked += 1
            }
        }
        #expect(checked > 300, "sources found: \(checked)")
    }

    /// The features and programs reach the database through the store's contract alone: no engine,
    /// no SQLite type, statement or connection (the stand-in keeps its own record in SQLite; the
    /// programs name the engine only through `StoreEngines`).
    @Test func theFeaturesAndProgramsNameNoEngine() throws {
        let forbidden = [
            "SQLiteConnection", "PreparedStatement", "SQLiteError", "Schema.", ".connection", "import CSQLite",
            "import SQLiteClient",
            "import SQLiteStore", "SQLiteEngine", "Postgres",
        ]
        var checked = 0
        for target in ["RegistrationService", "LiveActivitySweep", "liveactivity-fcgi", "liveactivity-sweep"] {
            let folder = packageRoot + "/Sources/" + target
            let files = try #require(FileManager.default.enumerator(atPath: folder), "\(folder)")
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
                for word in forbidden { #expect(!text.contains(word), "\(target)/\(file) names \(word)") }
                checked += 1
            }
        }
        #expect(checked > 20, "sources found: \(checked)")
    }

    /// The contract and the rules above it are the same for every engine: no C library, no engine,
    /// and no SQL in them; every engine's SQL decides no rule (which push an ack matches, what an
    /// interval is: `AckRule`, `IntervalPolicy` in the domain).
    @Test func theContractHoldsNoEngineAndTheEnginesNoRule() throws {
        let contract = packageRoot + "/Sources/LiveActivityStore"
        let files = try #require(FileManager.default.enumerator(atPath: contract))
        var checked = 0
        for case let file as String in files where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: contract + "/" + file, encoding: .utf8)
            for word in ["import C", "import SQLite", "import Postgres", "SELECT ", "UPDATE ", "INSERT "] {
                #expect(!text.contains(word), "LiveActivityStore/\(file) names \(word)")
            }
            checked += 1
        }
        #expect(checked > 15, "sources found: \(checked)")
        // The SQL both SQL engines share names neither engine nor C library: a third SQL engine
        // reuses it as it is.
        let shared = packageRoot + "/Sources/StoreSQL"
        var sharedChecked = 0
        for case let file as String in try #require(FileManager.default.enumerator(atPath: shared)) where file.hasSuffix(".swift")
        {
            let text = try String(contentsOfFile: shared + "/" + file, encoding: .utf8)
            for word in ["import C", "import SQLite", "import Postgres"] {
                #expect(!text.contains(word), "StoreSQL/\(file) names \(word)")
            }
            sharedChecked += 1
        }
        #expect(sharedChecked >= 4, "sources found: \(sharedChecked)")
        for engine in ["SQLiteStore", "PostgresStore"] {
            let folder = packageRoot + "/Sources/" + engine
            let sources = try #require(FileManager.default.enumerator(atPath: folder))
            for case let file as String in sources where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
                // The rules' constants and clamping stay in the domain: an engine binds the values.
                for word in ["ackedAt", "2 * interval", "maximumSeconds", "max(floor", "dueSlack", "typeSeconds"] {
                    #expect(!text.contains(word), "\(engine)/\(file) decides a rule: \(word)")
                }
            }
        }
    }

    /// The libraries `executable` names itself (its ELF `NEEDED` entries), not those they bring.
    func neededLibraries(_ executable: String) throws -> Set<String> {
        let readelf = try #require(systemTool("readelf"), "readelf is not installed")
        let result = try runCommand(readelf, ["-d", product(executable)])
        try #require(result.status == 0, "readelf \(executable): \(result.stderr)")
        return Set(
            result.stdout.split(separator: "\n").compactMap { line in
                guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else {
                    return nil
                }
                return String(line[line.index(after: open)..<close])
            })
    }

    /// The libraries opened at run time (`SharedLibrary`): no program names them.
    static let openedAtRunTime = ["libcurl", "libcrypto", "libssl", "libpq"]

    /// The responder names libfcgi and SQLite only: no HTTP client, no libcrypto, and libpq only
    /// when `LIVEACTIVITY_DB` names PostgreSQL, opened then (it brings libssl and libcrypto for TLS
    /// to the database server). None of its code signs or sends: APNsJWT and APNsHTTP2 are not in
    /// it (the manifest's check above).
    @Test func theResponderNamesNoLibraryItOpensAtRunTime() throws {
        let needed = try neededLibraries("liveactivity-fcgi")
        #expect(links(needed, "libfcgi") && links(needed, "libsqlite3"), "\(needed.sorted())")
        let libraries = try linkedLibraries("liveactivity-fcgi")
        for library in Self.openedAtRunTime {
            #expect(!links(needed, library) && !links(libraries, library), "\(library): \(libraries.sorted())")
        }
    }

    /// The sweep names SQLite and not libcurl, libcrypto or libpq, nor anything they bring (ldd):
    /// `--version`, `stats` and an idle run load none of them. The stand-in, like the sweep,
    /// opens libcrypto when it first checks a token.
    @Test func theSweepAndTheStandInNameNoLibraryTheyOpenAtRunTime() throws {
        for program in ["liveactivity-sweep", "liveactivity-apns-standin"] {
            let needed = try neededLibraries(program)
            #expect(links(needed, "libsqlite3"), "\(program): \(needed.sorted())")
            let libraries = try linkedLibraries(program)
            for library in Self.openedAtRunTime + ["libnghttp2", "libgnutls", "libgssapi_krb5", "libldap"] {
                #expect(!links(libraries, library), "\(program) loads \(library): \(libraries.sorted())")
            }
        }
        #expect(!links(try linkedLibraries("liveactivity-sweep"), "libfcgi"))
    }

    /// The package's Depends name the libraries opened at run time as dpkg-shlibdeps finds them
    /// (SPEC section 7), though no program names them: debian/rules has it read
    /// debian/dlopen-probe, which links them and references every function the shims bind. Each
    /// at the version the programs need: their newest function's (libpq 14's pipeline mode,
    /// OpenSSL 3's EVP_PKEY_get_base_id) or Build-Depends' where higher (libcurl 7.85, whose
    /// CURLOPT_PROTOCOLS_STR no function shows).
    @Test func dpkgShlibdepsFindsTheLibrariesOpenedAtRunTime() throws {
        let scratch = TemporaryDirectory("dlopen-probe")
        // From the source folder: dpkg-shlibdeps reads debian/control's Build-Depends.
        let script = #"cd "$1" && sh debian/dlopen-probe "$2" && dpkg-shlibdeps -O -e"$2/usr/bin/dlopen-probe""#
        let result = try runCommand("/bin/sh", ["-c", script, "sh", packageRoot, scratch.path], timeout: 120)
        try #require(result.status == 0, "dlopen-probe or dpkg-shlibdeps: \(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("shlibs:Depends=") })
        let depends = Set(
            line.dropFirst("shlibs:Depends=".count).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        for expected in ["libcurl4 (>= 7.85.0)", "libpq5 (>= 14)", "libssl3 (>= 3.0.0)"] {
            #expect(depends.contains(expected), "\(expected) not in \(depends.sorted())")
        }
    }

    /// The programs carry no Foundation at all, and so no ICU and its data (some 30 MB each when
    /// linked statically, as the package links them; FoundationEssentials alone some 7 MB): their
    /// threads, locks, files and text come from the system and the standard library. The
    /// stand-in, which the package does not ship, still uses Foundation: the control that shows
    /// the check can fail.
    @Test func theProgramsLoadNoFoundationAndNoICU() throws {
        let heavy = [
            "libFoundation", "libFoundationEssentials", "libFoundationInternationalization", "libFoundationNetworking", "libicu",
            "lib_FoundationICU",
        ]
        for program in ["liveactivity-fcgi", "liveactivity-sweep"] {
            let libraries = try linkedLibraries(program)
            for library in heavy { #expect(!links(libraries, library), "\(program) loads \(library): \(libraries.sorted())") }
        }
        #expect(links(try linkedLibraries("liveactivity-apns-standin"), "libFoundation"))
    }
}
