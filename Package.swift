// swift-tools-version:6.0
// The Live Activity wake-up backend: a FastCGI registration responder, a cron-run APNs sweep and a
// local APNs stand-in, all over Debian's C libraries (no outside Swift packages).
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

        // MARK: - Domain
        .target(
            name: "LiveActivityCore",
            dependencies: ["CSQLite", "COpenSSL", "CCurl"]
        ),
        // The local APNs stand-in's checks and record (SPEC 2), behind nginx's HTTP/2 + TLS.
        .target(name: "APNsStandIn", dependencies: ["LiveActivityCore"]),
        // The FastCGI/CGI wire, shared by the responder and the APNs stand-in.
        .target(name: "FastCGITransport", dependencies: ["CFastCGI", "LiveActivityCore"]),

        // MARK: - Executables (a page of wiring each)
        .executableTarget(name: "liveactivity-fcgi", dependencies: ["LiveActivityCore", "FastCGITransport"]),
        .executableTarget(name: "liveactivity-sweep", dependencies: ["LiveActivityCore"]),
        .executableTarget(
            name: "liveactivity-apns-standin", dependencies: ["LiveActivityCore", "APNsStandIn", "FastCGITransport"]),

        // MARK: - Tests
        .target(name: "TestSupport", dependencies: ["LiveActivityCore", "APNsStandIn"], path: "Tests/TestSupport"),
        .testTarget(name: "LiveActivityCoreTests", dependencies: ["LiveActivityCore", "TestSupport"]),
        .testTarget(name: "IntegrationTests", dependencies: ["LiveActivityCore", "APNsStandIn", "TestSupport"]),
        .testTarget(name: "StandInTests", dependencies: ["LiveActivityCore", "APNsStandIn", "TestSupport"]),
        .testTarget(name: "APNsTests", dependencies: ["LiveActivityCore", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
