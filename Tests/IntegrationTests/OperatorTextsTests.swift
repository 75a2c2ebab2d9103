import Foundation
import TestSupport
import Testing

/// What the operator reads, checked against what the code and the package do (issue 48):
/// certbot's renewal reloads nginx in every document that gets the certificate; a host by hand
/// is given the packages the programs load, not the test stack.
@Suite("What the operator reads", .sqlitePassOnly)
struct OperatorTextsTests {
    /// Every certbot line gives the same `--deploy-hook`, a reload of nginx: certbot keeps it and
    /// runs it after each renewal (PackageLifeTests runs it against nginx as the docs give it).
    @Test func everyCertbotLineReloadsNginxAfterARenewal() throws {
        var hooks: [String: String] = [:]
        for document in ["README.md", "docs/INSTALL.md", "debian/liveactivity.README.Debian"] {
            let lines = try Documents.text(document).split(separator: "\n").filter { $0.contains("certbot certonly") }
            #expect(!lines.isEmpty, "\(document) gives no certbot line")
            for line in lines {
                let hook = line.firstMatch(of: /--deploy-hook '([^']+)'/).map { String($0.output.1) }
                #expect(hook != nil, "\(document)'s certbot line gives no --deploy-hook: \(line)")
                if let hook { hooks["\(document): \(line)"] = hook }
            }
        }
        #expect(Set(hooks.values).count == 1, "the documents give different deploy hooks: \(hooks)")
        for hook in Set(hooks.values) {
            #expect(hook.contains("nginx") && hook.contains("reload"), "the deploy hook '\(hook)' reloads no nginx")
        }
    }

    /// A host by hand installs what the programs load (the package's Depends: the C libraries'
    /// packages, spawn-fcgi) and nginx; `scripts/install-deps` alone, the test stack (PostgreSQL,
    /// chromium, lintian), is for a build host only as `--build-only`. The static build still
    /// loads those libraries: it is not called self-contained.
    @Test func aHostByHandGetsTheRuntimePackagesAndNoTestTool() throws {
        let install = try Documents.text("docs/INSTALL.md")
        for match in install.matches(of: /scripts\/install-deps( --[a-z-]+)?/) {
            #expect(match.output.1 == " --build-only", "docs/INSTALL.md runs '\(match.output.0)': the whole test stack")
        }
        #expect(!install.contains("self-contained"), "docs/INSTALL.md calls a build self-contained")
        let byHand = try Documents.section("## By hand", in: "docs/INSTALL.md")
        let line = try #require(
            byHand.split(separator: "\n").compactMap { $0.firstMatch(of: /apt install ([a-z0-9 .+-]+)/)?.output.1 }
                .first { $0.contains("spawn-fcgi") }, "docs/INSTALL.md's way by hand installs no runtime packages")
        let named = Set(line.split(separator: " ").map(String.init))
        let control = try Documents.text("debian/control")
        let depends = try #require(control.firstMatch(of: /\nDepends:((?:.|\n )*)/)?.output.1, "no Depends")
        let literal = depends.split(separator: ",").compactMap { $0.split(whereSeparator: \.isWhitespace).first }
            .map(String.init).filter { !$0.hasPrefix("$") && $0 != "adduser" }
        let needed = Set(PackageHost.libraryPackages + literal + ["nginx"])
        #expect(named.isSuperset(of: needed), "docs/INSTALL.md's runtime packages lack \(needed.subtracting(named).sorted())")
    }
}
