import Foundation
import TestSupport
import Testing

/// docs/API.md's curl lines, run as written against the responder behind real nginx (issue 33:
/// each command a document gives is run by a test): the placeholders `<64+ hex digits>` and
/// `<hex>` become one real token (`<widget hex>` another), `http://127.0.0.1:8080` the test's nginx; each command exits 0
/// and prints the body its `# →` comment gives.
@Suite("API document")
struct APIDocumentTests {
    static let exampleBase = "http://127.0.0.1:8080"

    /// The commands of the block under "The routes" (continuation lines joined), each with the
    /// body its `# →` comment (on the next line, or after it on the same line) says.
    static func commands() throws -> [(command: String, expected: String?)] {
        let block = try #require(
            MarkdownBlock.all("sh", in: "docs/API.md").first { $0.heading == "The routes" }, "docs/API.md has no curl block")
        var result: [(command: String, expected: String?)] = []
        var pending = ""
        for line in block.text.split(separator: "\n").map(String.init) {
            if !pending.isEmpty || line.hasPrefix("curl ") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasSuffix("\\") {
                    pending += String(trimmed.dropLast()) + " "
                    continue
                }
                let whole = pending + trimmed
                pending = ""
                let parts = whole.components(separatedBy: "# → ")
                result.append((parts[0].trimmingCharacters(in: .whitespaces), parts.count > 1 ? parts[1] : nil))
            } else if line.hasPrefix("# → "), let last = result.indices.last, result[last].expected == nil {
                result[last].expected = String(line.dropFirst(4))
            }
        }
        return result
    }

    /// The JSON object `text` starts with (its braces balanced outside strings), nil when it
    /// starts with none.
    static func leadingJSONObject(_ text: String) -> String? {
        guard text.hasPrefix("{") else { return nil }
        var depth = 0
        var inString = false
        var escaped = false
        for (offset, character) in text.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
                continue
            }
            switch character {
            case "\"": inString = true
            case "{", "[": depth += 1
            case "}", "]":
                depth -= 1
                if depth == 0 { return String(text.prefix(offset + 1)) }
            default: break
            }
        }
        return nil
    }

    @Test(arguments: TestEngine.real)
    func everyCurlLineRunsAsWrittenAndAnswersAsItsCommentSays(engine: TestEngine) throws {
        let commands = try Self.commands()
        #expect(commands.count >= 8, "docs/API.md's block holds \(commands.count) commands")
        let stack = try LiveStack(engine)
        let token = testToken(3301)
        let widget = testToken(3302)
        let bash = try #require(systemTool("bash"))
        for (command, expected) in commands {
            #expect(command.contains(Self.exampleBase), "\(command)")
            let line = command.replacingOccurrences(of: Self.exampleBase, with: "http://127.0.0.1:\(stack.port)")
                .replacingOccurrences(of: "<64+ hex digits>", with: token).replacingOccurrences(of: "<widget hex>", with: widget)
                .replacingOccurrences(of: "<hex>", with: token)
            let run = try runCommand(bash, ["-c", "set -euo pipefail; " + line], environment: ["PATH": "/usr/bin:/bin"])
            #expect(run.status == 0, "\(line): \(run.stderr)")
            guard let expected else { continue }
            // "200 {"success":true}   (what applies ...)": the body is the JSON after the status
            // (which may hold spaces in its strings), else the word after it.
            let words = expected.split(separator: " ", maxSplits: 2)
            #expect(words.first == "200", "\(command): the comment names no 200: \(expected)")
            guard words.count > 1 else { continue }
            let body =
                Self.leadingJSONObject(String(expected.dropFirst(4)))
                ?? String(words[1]).trimmingCharacters(in: CharacterSet(charactersIn: ","))
            if body.contains("N}") {
                let prefix = String(body.prefix { $0 != "N" })
                #expect(run.stdout.hasPrefix(prefix), "\(command) printed \(run.stdout), not \(body)")
            } else {
                #expect(run.stdout == body, "\(command) printed \(run.stdout), not \(body)")
            }
        }
    }

    /// Each route of the block answers the `Content-Type` the section's prose gives it: the one
    /// named beside the route (`/wakeup/metrics` ... (`Content-Type: ...`)), else JSON's, which
    /// the prose gives every other answer (issue 48 point 12: it once called every answer JSON).
    @Test(arguments: TestEngine.real)
    func eachRouteAnswersTheContentTypeTheDocumentGives(engine: TestEngine) throws {
        let prose = try Documents.section("## The routes", in: "docs/API.md")
        #expect(prose.contains("`Content-Type: application/json`"), "docs/API.md gives no JSON content type")
        var types: [String: String] = [:]
        for match in prose.matches(of: /`(\/wakeup\/[a-z]+)`[^`(]*\(`Content-Type: ([^`]+)`\)/) {
            types[String(match.output.1)] = String(match.output.2)
        }
        let stack = try LiveStack(engine)
        let token = testToken(3311)
        let bash = try #require(systemTool("bash"))
        var routes = Set<String>()
        for (command, _) in try Self.commands() {
            let route = try #require(command.firstMatch(of: /127\.0\.0\.1:8080(\/[a-z\/]+)/)?.output.1, "\(command)")
            routes.insert(String(route))
            let line = command.replacingOccurrences(of: "curl ", with: "curl -sS -o /dev/null -D - ")
                .replacingOccurrences(of: Self.exampleBase, with: "http://127.0.0.1:\(stack.port)")
                .replacingOccurrences(of: "<64+ hex digits>", with: token)
                .replacingOccurrences(of: "<widget hex>", with: testToken(3312)).replacingOccurrences(of: "<hex>", with: token)
            let run = try runCommand(bash, ["-c", "set -euo pipefail; " + line], environment: ["PATH": "/usr/bin:/bin"])
            let answered = run.stdout.split(whereSeparator: \.isNewline).first { $0.lowercased().hasPrefix("content-type:") }
                .map { $0.dropFirst("content-type:".count).trimmingCharacters(in: .whitespaces) }
            let expected = types[String(route)] ?? "application/json"
            #expect(answered == expected, "\(route) answered Content-Type \(answered ?? "none"); docs/API.md says \(expected)")
        }
        #expect(Set(types.keys).isSubset(of: routes), "docs/API.md gives types for routes its block does not show: \(types)")
        #expect(routes.isSuperset(of: ["/wakeup/metrics", "/wakeup/status"]), "\(routes.sorted())")
    }
}
