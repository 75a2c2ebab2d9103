import Foundation
import TestSupport
import Testing

/// The layers hold at link time: each built executable loads only the C libraries of the targets
/// it uses. The web-facing responder links neither libcurl nor libcrypto, so it cannot sign or
/// send a push even if it were compromised; the sweep links both (the control that shows the
/// check can fail).
@Suite struct PackageShapeTests {
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

    @Test func theResponderLinksNeitherLibcurlNorLibcrypto() throws {
        let libraries = try linkedLibraries("liveactivity-fcgi")
        #expect(links(libraries, "libfcgi") && links(libraries, "libsqlite3"), "\(libraries.sorted())")
        #expect(!links(libraries, "libcurl"), "\(libraries.sorted())")
        #expect(!links(libraries, "libcrypto"), "\(libraries.sorted())")
        #expect(!links(libraries, "libssl"), "\(libraries.sorted())")
    }

    @Test func theSweepLinksLibcurlAndLibcrypto() throws {
        let libraries = try linkedLibraries("liveactivity-sweep")
        #expect(links(libraries, "libcurl") && links(libraries, "libcrypto"), "\(libraries.sorted())")
        #expect(!links(libraries, "libfcgi"), "\(libraries.sorted())")
    }

    @Test func theStandInVerifiesWithLibcryptoButSendsNothing() throws {
        let libraries = try linkedLibraries("liveactivity-apns-standin")
        #expect(links(libraries, "libcrypto") && links(libraries, "libfcgi"), "\(libraries.sorted())")
        #expect(!links(libraries, "libcurl"), "\(libraries.sorted())")
    }
}
