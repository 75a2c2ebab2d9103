import Foundation
import TestSupport

/// docs/INSTALL.md as the operator reads it: the fenced `sh` blocks of each numbered step of one
/// way to deploy (by hand, or the Debian package), taken from the document itself so the test
/// runs what it says (README's package steps are the same blocks: `DocumentationTests`).
struct ReadmeDeployment {
    /// A way to deploy: the part of docs/INSTALL.md between two headings.
    enum Way {
        case byHand
        case package

        var start: String { self == .byHand ? "## By hand" : "## With the Debian package" }
        var end: String { self == .byHand ? "**Stop, restart" : "## By hand" }
    }

    static let document = "docs/INSTALL.md"

    /// One fenced `sh` block, de-indented, with the number of the step it belongs to.
    struct Block {
        let step: Int
        let text: String
    }

    let blocks: [Block]
    /// The section's prose too (for inline commands such as the `stats` line).
    let section: String

    init(_ way: Way = .byHand) throws {
        let lines = try Documents.text(Self.document).components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0 == way.start }) else {
            throw SocketError("\(Self.document) has no '\(way.start)' section")
        }
        let end = lines[start...].firstIndex(where: { $0.hasPrefix(way.end) }) ?? lines.endIndex
        let part = lines[start..<end]
        section = part.joined(separator: "\n")

        var blocks: [Block] = []
        var step = 0
        var fenceIndent: Int?
        var current: [String] = []
        for line in part {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let indent = fenceIndent {
                if trimmed == "```" {
                    blocks.append(Block(step: step, text: current.joined(separator: "\n") + "\n"))
                    fenceIndent = nil
                    current = []
                } else {
                    current.append(String(line.dropFirst(min(indent, line.prefix { $0 == " " }.count))))
                }
                continue
            }
            if trimmed == "```sh" {
                fenceIndent = line.prefix { $0 == " " }.count
            } else if let number = Self.stepNumber(line) {
                step = number
            }
        }
        self.blocks = blocks
    }

    /// `3` for a line like `3. **Configuration**, ...`.
    private static func stepNumber(_ line: String) -> Int? {
        guard let dot = line.firstIndex(of: "."), line[line.index(after: dot)...].hasPrefix(" **") else { return nil }
        return Int(line[..<dot])
    }

    /// The first block holding `fragment`.
    func block(containing fragment: String) throws -> Block {
        guard let block = blocks.first(where: { $0.text.contains(fragment) }) else {
            throw SocketError("docs/INSTALL.md's deployment section has no sh block with '\(fragment)'")
        }
        return block
    }

    /// The value of `NAME=value` in the configuration block.
    func setting(_ name: String) throws -> String {
        let block = try block(containing: "liveactivity.env <<")
        guard let line = block.text.components(separatedBy: "\n").first(where: { $0.hasPrefix(name + "=") }) else {
            throw SocketError("docs/INSTALL.md's configuration block sets no \(name)")
        }
        return String(line.dropFirst(name.count + 1))
    }

    /// The host name docs/INSTALL.md's nginx step puts in place of `wakeup.example.org`.
    func siteName() throws -> String {
        let block = try block(containing: "sites-available/liveactivity")
        let marker = "s/wakeup\\.example\\.org/"
        guard let range = block.text.range(of: marker),
            let slash = block.text[range.upperBound...].firstIndex(of: "/")
        else { throw SocketError("docs/INSTALL.md's nginx step has no sed replacing wakeup.example.org") }
        return String(block.text[range.upperBound..<slash])
    }

    /// The command certbot runs after each renewal, as the section's certbot line gives it
    /// (`--deploy-hook '...'`): nginx serves the certificate it read at its last (re)load.
    func certbotDeployHook() throws -> String {
        let line = try line(containing: "certbot certonly ")
        guard let hook = line.firstMatch(of: /--deploy-hook '([^']+)'/)?.output.1 else {
            throw SocketError("docs/INSTALL.md's certbot line gives no --deploy-hook: nginx would serve the old certificate")
        }
        return String(hook)
    }

    /// The line of a block that holds `fragment` (the start line of step 4, for example).
    func line(containing fragment: String) throws -> String {
        for block in blocks {
            if let line = block.text.components(separatedBy: "\n").first(where: { $0.contains(fragment) }) {
                return line
            }
        }
        throw SocketError("docs/INSTALL.md's deployment section has no command line with '\(fragment)'")
    }

    /// An inline command of the section's prose, `` `runuser ...` `` for example.
    func inlineCommand(startingWith prefix: String) throws -> String {
        guard let start = section.range(of: "`" + prefix) else {
            throw SocketError("docs/INSTALL.md's deployment section shows no `\(prefix)...` command")
        }
        let rest = section[start.upperBound...]
        guard let close = rest.firstIndex(of: "`") else { throw SocketError("unclosed `\(prefix)` in docs/INSTALL.md") }
        return prefix + rest[..<close]
    }
}

/// Replaces `original` with `replacement` in `text`, and fails when `original` is not there:
/// a substitution the test relies on must not silently stop applying when the document changes.
func substituting(_ original: String, with replacement: String, in text: String, what: String) throws -> String {
    guard text.contains(original) else {
        throw SocketError("docs/INSTALL.md no longer contains '\(original)' (\(what)): update the operator-path test")
    }
    return text.replacingOccurrences(of: original, with: replacement)
}
