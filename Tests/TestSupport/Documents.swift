import Foundation

/// The repository's documents (README.md, docs/*.md) as the tests read them: a test that runs a
/// document's commands takes them from the document itself, by its headings.
public enum Documents {
    /// The text of the document at `path`, relative to the package root (`docs/INSTALL.md`).
    public static func text(_ path: String) throws -> String {
        try String(contentsOfFile: packageRoot + "/" + path, encoding: .utf8)
    }

    /// The part of the document at `path` under the heading line `heading` (`## By hand`), up to
    /// the next heading of the same level or above, outside fenced blocks; without the heading line.
    public static func section(_ heading: String, in path: String) throws -> String {
        let lines = try text(path).components(separatedBy: "\n")
        let level = heading.prefix { $0 == "#" }.count
        guard level > 0, let start = lines.firstIndex(of: heading) else {
            throw SocketError("\(path) has no heading '\(heading)'")
        }
        var end = lines.endIndex
        var fenced = false
        for index in lines.indices where index > start {
            let line = lines[index]
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { fenced.toggle() }
            if fenced || !line.hasPrefix("#") { continue }
            let depth = line.prefix { $0 == "#" }.count
            if depth <= level && line.dropFirst(depth).hasPrefix(" ") {
                end = index
                break
            }
        }
        return lines[(start + 1)..<end].joined(separator: "\n") + "\n"
    }
}
