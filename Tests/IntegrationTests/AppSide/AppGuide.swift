import Foundation
import TestSupport
import Testing

/// docs/APP.md's blocks as the tests use them: the Swift that needs the library, the Swift that
/// does without it, the shell lines, the sample of `history`'s output, the 400 a development
/// build meets first, and the lines that add the library to a package.
struct AppGuide {
    static let path = "docs/APP.md"
    /// The backend's URL in the guide, which a test replaces with its nginx's.
    static let exampleBackend = "https://wakeup.example.org"

    let librarySwift: [String]
    let plainSwift: String
    let curlBlock: String
    let historyLine: String
    let historySample: [String]
    /// The 400 the guide quotes for a sandbox token on the package's settings.
    let sandboxRefusal: String
    /// The `Package.swift` lines that add the library.
    let manifestLines: String

    init() throws {
        let blocks = try MarkdownBlock.all(in: Self.path)
        let swift = blocks.filter { $0.language == "swift" }
        let plain = swift.filter { $0.heading.contains("Without the library") }
        guard plain.count == 1 else {
            throw SocketError("APP.md: expected one Swift block without the library, found \(plain.count)")
        }
        plainSwift = plain[0].text
        librarySwift = swift.filter { !$0.heading.contains("Without the library") }.map(\.text)
        let shell = blocks.filter { $0.language == "sh" }
        guard let curl = shell.first(where: { $0.text.contains("curl ") }) else { throw SocketError("APP.md has no curl block") }
        curlBlock = curl.text
        guard let history = shell.first(where: { $0.text.contains("liveactivity-sweep history") }) else {
            throw SocketError("APP.md has no history line")
        }
        historyLine = history.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard shell.count == 2 else { throw SocketError("APP.md: a shell block no test runs (\(shell.count) blocks)") }
        guard let sample = blocks.first(where: { $0.language.isEmpty && $0.text.hasPrefix("Registration ") }) else {
            throw SocketError("APP.md has no sample of history's output")
        }
        historySample = sample.text.components(separatedBy: "\n")
        let plainBlocks = blocks.filter { $0.language.isEmpty }
        guard let refusal = plainBlocks.first(where: { $0.text.hasPrefix(#"{"error":"Unsupported environment"#) }) else {
            throw SocketError("APP.md quotes no 400 for a sandbox token")
        }
        sandboxRefusal = refusal.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let manifest = plainBlocks.first(where: { $0.text.contains(".package(url:") }) else {
            throw SocketError("APP.md gives no Package.swift lines")
        }
        manifestLines = manifest.text
    }

    /// The value of `NAME=` in the curl block.
    func shellVariable(_ name: String) throws -> String {
        guard let line = curlBlock.components(separatedBy: "\n").first(where: { $0.hasPrefix(name + "=") }) else {
            throw SocketError("APP.md's curl block sets no \(name)")
        }
        return String(line.dropFirst(name.count + 1).prefix { $0 != " " })
    }
}

/// `text` with the guide's backend URL replaced by `replacement`; the guide must still hold it.
func pointingAt(_ replacement: String, _ text: String) throws -> String {
    guard text.contains(AppGuide.exampleBackend) else {
        throw SocketError("APP.md's block no longer names \(AppGuide.exampleBackend): update AppGuideTests")
    }
    return text.replacingOccurrences(of: AppGuide.exampleBackend, with: replacement)
}

/// The swift and swiftc of the toolchain running the tests.
func swiftTool(_ name: String) throws -> String {
    try #require(
        ["/usr/bin/\(name)", "/opt/swift/usr/bin/\(name)"].first(where: FileManager.default.isExecutableFile)
            ?? systemTool(name), "\(name) is not installed")
}
