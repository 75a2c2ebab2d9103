// swift-tools-version:6.0
// The Live Activity wake-up backend: a FastCGI registration responder, a cron-run APNs sweep and a
// local APNs stand-in, all over Debian's C libraries (no outside Swift packages).
//
// Targets are layers, so the compiler holds them apart: a target sees only what it depends on, and
// an executable links only the C libraries beneath what it uses.
// - At the bottom, the domain: plain values with no C module beneath them. What the programs share
//   (a token, an environment, a due registration and the write it is owed) is defined once
//   here, so a layer that needs one meaning of a token does not inherit a C library for it.
// - Beside it, the figures (stats, metrics): values and renderings, no C either, so both programs
//   render them and neither links a library for it.
// - Over those, one target per C library: the wire (libfcgi), the store (SQLite), the provider token
//   (libcrypto), the APNs client (libcurl), PostgreSQL's client (libpq). Each keeps its C types
//   inside, so which C library a program links follows from which of these it uses.
// - Then the features, and the executables (a page of wiring each).
// The web-facing responder therefore links no libcurl and reaches no APNsJWT: it holds no APNs key
// by construction, not by promise (libcrypto reaches it only through libpq, for TLS to a database
// server, and none of its code calls it); the APNs layers reach no SQLite (PackageShapeTests).
// Apart from all of them, the library an iOS app adds (LiveActivityWakeClient): Foundation only,
// no other target and no C library beneath it, so it builds for iOS as for Linux.
import PackageDescription

let package = Package(
    name: "LiveActivityBackend",
    // For the app's library only: the backend's programs build for Linux, where this says nothing.
    platforms: [.iOS(.v16), .macOS(.v13)],
    products: [
        // The app's side (SPEC 7): what an iOS app adds with the Swift package manager.
        .library(name: "LiveActivityWakeClient", targets: ["LiveActivityWakeClient"]),
        .executable(name: "liveactivity-fcgi", targets: ["liveactivity-fcgi"]),
        .executable(name: "liveactivity-sweep", targets: ["liveactivity-sweep"]),
        .executable(name: "liveactivity-apns-standin", targets: ["liveactivity-apns-standin"]),
    ],
    targets: [
        // MARK: - C libraries from Debian
        .systemLibrary(name: "CFastCGI", pkgConfig: "fcgi", providers: [.apt(["libfcgi-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // Opened at run time, not linked (no pkg-config, whose flags would link them): each
        // shim.h is a table of the functions used, filled by its wrapper target's loader when a
        // run needs the library (APNsHTTP2, APNsJWT, PostgresClient), so an idle sweep and a
        // responder on SQLite map none of them and the ~35 libraries libcurl brings.
        .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CPostgreSQL", providers: [.apt(["libpq-dev"])]),

        // MARK: - The domain, over no C library
        // Tokens, environments, activity types, the provider token, the clock, registrations, the
        // due registration and the outcome write, the sweep's summary, faults and deadline (which
        // the APNs client reads too), and the settings (plain text in, values out). Everything
        // above shares it.
        .target(name: "LiveActivityDomain", dependencies: ["SystemSupport"]),
        // What the programs took from Foundation, from the system itself: threads, a mutex and its
        // condition variable (pthreads), the environment and host name. Foundation's static copy
        // brings ICU's data (some 30 MB a program), which nothing here needs. No C module either.
        .target(name: "SystemSupport"),
        // The figures (stats, metrics, the status page to come): their typed values and every
        // rendering of them (text, JSON, Prometheus), in one place over the domain alone, so both
        // programs render with it and neither links a C library for it. The store fills the values.
        .target(name: "LiveActivityFigures", dependencies: ["LiveActivityDomain"]),

        // MARK: - One layer per C library
        // The HTTP model and the FastCGI/CGI wire. It knows nothing of the domain, so the responder
        // and the stand-in share it and a request carries no registration concept down here.
        .target(name: "FastCGIWire", dependencies: ["CFastCGI", "SystemSupport"]),
        // SQLite's own wrapper: the connection, prepared statements, rows and errors. Only the SQLite
        // engine and the stand-in's own record use it.
        .target(name: "SQLiteClient", dependencies: ["CSQLite", "SystemSupport"]),
        // PostgreSQL's client over libpq, knowing nothing of the domain (as the wire knows no
        // registration): connections whose every wait is bounded, prepared statements, pipelines,
        // and libpq's failures classified. Only the PostgreSQL engine (and its tests) links libpq.
        .target(name: "PostgresClient", dependencies: ["CPostgreSQL", "SystemSupport"]),
        // ES256 provider tokens over libcrypto: the sweep signs with it, the stand-in verifies with it;
        // libcrypto's handles stay inside.
        .target(name: "APNsJWT", dependencies: ["COpenSSL", "LiveActivityDomain", "SystemSupport"]),
        // The APNs client over libcurl's HTTP/2; only the sweep (and its tests) link libcurl. It sends
        // the provider token it is given and never signs one, so it needs no libcrypto of its own.
        .target(name: "APNsHTTP2", dependencies: ["CCurl", "LiveActivityDomain", "SystemSupport"]),

        // MARK: - The store: one contract, an engine per database
        // The contract every engine speaks (repository protocols over domain and figure values, a
        // backend-neutral fault) and what sits above it once: the responder's group commit, the
        // sweep's outcome batch, how figures add up. No C: the rules are decided here, engines
        // differ only in statements.
        .target(name: "LiveActivityStore", dependencies: ["LiveActivityDomain", "LiveActivityFigures", "SystemSupport"]),
        // The SQL both SQL engines share: statement text whose binds number themselves, and the
        // rules' fragments (the due order, the unreached targets, the registered-at guard).
        .target(name: "StoreSQL", dependencies: ["LiveActivityStore", "LiveActivityDomain", "LiveActivityFigures"]),
        // The embedded engine: the contract's statements over one SQLite file.
        .target(
            name: "SQLiteStore",
            dependencies: [
                "CSQLite", "SQLiteClient", "LiveActivityStore", "StoreSQL", "LiveActivityDomain", "LiveActivityFigures",
            ]),
        // The engine of several hosts: the contract's statements over one PostgreSQL database, with leases.
        .target(
            name: "PostgresStore",
            dependencies: [
                "PostgresClient", "LiveActivityStore", "StoreSQL", "LiveActivityDomain", "LiveActivityFigures",
            ]),
        // The in-memory engine: the contract over plain values, for the figures' and the sweep's
        // unit tests. It decides nothing (every rule is above the contract), so a rule that an
        // engine had to write again would show here first. No program links it.
        .target(
            name: "MemoryStore",
            dependencies: ["LiveActivityStore", "LiveActivityDomain", "LiveActivityFigures", "SystemSupport"]),
        // The engine LIVEACTIVITY_DB names: the one place that knows every engine.
        .target(name: "StoreEngines", dependencies: ["LiveActivityStore", "SQLiteStore", "PostgresStore", "LiveActivityDomain"]),

        // MARK: - Features
        // The JSON API of SPEC section 3 as a plain function from request to response.
        .target(
            name: "RegistrationService",
            dependencies: ["FastCGIWire", "LiveActivityDomain", "LiveActivityFigures", "LiveActivityStore", "SystemSupport"]),
        // The sweep of SPEC section 5.
        .target(
            name: "LiveActivitySweep",
            dependencies: ["LiveActivityDomain", "LiveActivityStore", "APNsJWT", "APNsHTTP2", "SystemSupport"]),
        // The local APNs stand-in's checks and record (SPEC 2), behind nginx's HTTP/2 + TLS. It
        // verifies tokens through APNsJWT's public verifier, so it names no libcrypto type.
        .target(
            name: "APNsStandIn", dependencies: ["FastCGIWire", "LiveActivityDomain", "SQLiteClient", "APNsJWT", "SystemSupport"]),

        // MARK: - The app's side
        // The client the iOS app adds (SPEC 7 "The app's side"): registers the device token, acks a
        // wake, unregisters, and reads every answer, over URLSession alone. It depends on no target
        // here and no C library, so an app's build pulls in nothing of the backend.
        .target(name: "LiveActivityWakeClient"),

        // MARK: - Executables (a page of wiring each)
        .executableTarget(
            name: "liveactivity-fcgi",
            dependencies: ["FastCGIWire", "RegistrationService", "LiveActivityDomain", "LiveActivityStore", "StoreEngines"]),
        .executableTarget(
            name: "liveactivity-sweep",
            dependencies: [
                "LiveActivitySweep", "LiveActivityDomain", "LiveActivityFigures", "LiveActivityStore", "StoreEngines",
                "SystemSupport",
            ]),
        .executableTarget(
            name: "liveactivity-apns-standin", dependencies: ["APNsStandIn", "FastCGIWire", "LiveActivityDomain"]),

        // MARK: - Tests (one target per library target, plus the live system)
        .target(
            name: "TestSupport",
            dependencies: [
                "LiveActivityDomain", "LiveActivityFigures", "LiveActivityStore", "SQLiteClient", "SQLiteStore", "StoreEngines",
                "PostgresClient", "PostgresStore", "MemoryStore",
                "APNsJWT", "APNsHTTP2", "LiveActivitySweep", "APNsStandIn", "RegistrationService", "FastCGIWire",
            ],
            path: "Tests/TestSupport"),
        .testTarget(name: "FastCGIWireTests", dependencies: ["FastCGIWire", "TestSupport"]),
        .testTarget(name: "LiveActivityDomainTests", dependencies: ["LiveActivityDomain", "TestSupport"]),
        .testTarget(name: "SystemSupportTests", dependencies: ["SystemSupport"]),
        .testTarget(
            name: "LiveActivityFiguresTests",
            dependencies: ["LiveActivityFigures", "LiveActivityDomain", "LiveActivityStore", "TestSupport"]),
        .testTarget(
            name: "LiveActivityStoreTests",
            dependencies: [
                "LiveActivityStore", "StoreSQL", "SQLiteStore", "SQLiteClient", "StoreEngines", "LiveActivityDomain",
                "LiveActivityFigures",
                "TestSupport",
            ]),
        .testTarget(
            name: "APNsJWTTests", dependencies: ["APNsJWT", "APNsStandIn", "LiveActivityDomain", "SystemSupport", "TestSupport"]),
        .testTarget(
            name: "PostgresClientTests", dependencies: ["PostgresClient", "CPostgreSQL", "SystemSupport", "TestSupport"]),
        .testTarget(
            name: "PostgresStoreTests", dependencies: ["PostgresStore", "LiveActivityStore", "LiveActivityDomain", "TestSupport"]),
        .testTarget(name: "APNsHTTP2Tests", dependencies: ["APNsHTTP2", "LiveActivityDomain", "SystemSupport", "TestSupport"]),
        .testTarget(
            name: "RegistrationServiceTests",
            dependencies: [
                "RegistrationService", "FastCGIWire", "LiveActivityDomain", "LiveActivityFigures", "LiveActivityStore",
                "TestSupport",
            ]),
        .testTarget(
            name: "LiveActivitySweepTests",
            dependencies: [
                "LiveActivitySweep", "APNsHTTP2", "LiveActivityDomain", "LiveActivityStore", "SQLiteStore", "TestSupport",
            ]),
        .testTarget(
            name: "APNsStandInTests",
            dependencies: ["APNsStandIn", "APNsJWT", "FastCGIWire", "LiveActivityDomain", "TestSupport"]),
        .testTarget(name: "LiveActivityWakeClientTests", dependencies: ["LiveActivityWakeClient"]),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "LiveActivityDomain", "LiveActivityStore", "LiveActivitySweep", "APNsStandIn", "SQLiteClient", "PostgresClient",
                "TestSupport", "LiveActivityWakeClient",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
