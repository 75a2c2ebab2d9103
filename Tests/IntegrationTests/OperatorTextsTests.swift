import Foundation
import TestSupport
import Testing

/// What the operator reads, checked against what the code and the package do (issue 48):
/// certbot's renewal reloads nginx in every document that gets the certificate.
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
}
