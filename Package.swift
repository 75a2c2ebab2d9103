// swift-tools-version:6.0
// The Live Activity wake-up backend: a FastCGI registration responder, a cron-run APNs sweep and a
// local APNs stand-in, all over Debian's C libraries (no outside Swift packages).
//
// Targets are layers that follow the C libraries, so the compiler holds them apart: a target sees
// only what it depends on, and an executable links only the C libraries beneath what it uses.
// The web-facing responder therefore links neither libcurl nor libcrypto - it holds no APNs key by
// construction, not by promise (checked by PackageShapeTests).
import PackageDescription

let package = Package(
    name: "LiveActivityBackend",
    products: [
        .executable(name: "liveactivity-fcgi", targets: ["liveactivity-fcgi"]),
        .executable(name: "liveactivity-sweep", targets: ["liveactivity-sweep"]),
        .executable(name: "liveactivity-apns-standin", targets: ["liveactivity-apns-standin"]),
    ],
    targets: [
        // MARK: - C libraries from Debian
        .systemLibrary(name: "CFastCGI", pkgConfig: "fcgi", providers: [.apt(["libfcgi-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),

        // MARK: - Bottom layers, each over one C library
        // The HTTP model and the FastCGI/CGI wire. It knows nothing of the domain, so the responder
        // and the stand-in share it and a request carries no registration concept down here.
        .target(name: "FastCGIWire", dependencies: ["CFastCGI"]),
        // Domain values, configuration, and storage: the only target that writes SQL for the
        // registrations. Below both the API and the sweep, so they share one meaning of a token.
        .target(name: "LiveActivityCore", dependencies: ["CSQLite"]),
        // ES256 provider tokens over libcrypto: the sweep signs with it, the stand-in verifies.
        .target(name: "APNsJWT", dependencies: ["COpenSSL", "LiveActivityCore"]),
        // The APNs client over libcurl's HTTP/2; only the sweep (and its tests) link libcurl. It sends
        // the provider token it is given and never signs one, so it needs no libcrypto of its own.
        .target(name: "APNsHTTP2", dependencies: ["CCurl", "LiveActivityCore"]),

        // MARK: - Features
        // The JSON API of SPEC section 3 as a plain function from request to response.
        .target(name: "RegistrationService", dependencies: ["FastCGIWire", "LiveActivityCore"]),
        // The sweep of SPEC section 5 and the `stats` report of section 7.
        .target(name: "LiveActivitySweep", dependencies: ["LiveActivityCore", "APNsJWT", "APNsHTTP2"]),
        // The local APNs stand-in's checks and record (SPEC 2), behind nginx's HTTP/2 + TLS; its
        // token verifier lives here because nothing else verifies.
        .target(name: "APNsStandIn", dependencies: ["FastCGIWire", "LiveActivityCore", "APNsJWT", "COpenSSL"]),

        // MARK: - Executables (a page of wiring each)
        .executableTarget(
            name: "liveactivity-fcgi", dependencies: ["FastCGIWire", "RegistrationService", "LiveActivityCore"]),
        .executableTarget(name: "liveactivity-sweep", dependencies: ["LiveActivitySweep", "LiveActivityCore"]),
        .executableTarget(
            name: "liveactivity-apns-standin", dependencies: ["APNsStandIn", "FastCGIWire", "LiveActivityCore"]),

        // MARK: - Tests (one target per library target, plus the live system)
        .target(
            name: "TestSupport", dependencies: ["LiveActivityCore", "APNsJWT", "APNsHTTP2", "LiveActivitySweep", "APNsStandIn"],
            path: "Tests/TestSupport"),
        .testTarget(name: "FastCGIWireTests", dependencies: ["FastCGIWire", "TestSupport"]),
        .testTarget(name: "LiveActivityCoreTests", dependencies: ["LiveActivityCore", "TestSupport"]),
        .testTarget(name: "APNsJWTTests", dependencies: ["APNsJWT", "APNsStandIn", "TestSupport"]),
        .testTarget(name: "APNsHTTP2Tests", dependencies: ["APNsHTTP2", "LiveActivityCore", "TestSupport"]),
        .testTarget(
            name: "RegistrationServiceTests",
            dependencies: ["RegistrationService", "FastCGIWire", "LiveActivityCore", "TestSupport"]),
        .testTarget(
            name: "LiveActivitySweepTests",
            dependencies: ["LiveActivitySweep", "APNsHTTP2", "LiveActivityCore", "TestSupport"]),
        .testTarget(
            name: "APNsStandInTests", dependencies: ["APNsStandIn", "APNsJWT", "FastCGIWire", "LiveActivityCore", "TestSupport"]),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["LiveActivityCore", "APNsStandIn", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
