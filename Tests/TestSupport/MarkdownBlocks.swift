import Foundation

/// The fenced blocks of a Markdown document (README, docs/), so a test runs or compiles what the
/// document says, as written: each block's language, its text, and the heading it sits under.
public struct MarkdownBlock: Sendable {
    /// The fence's info string: `sh`, `swift`, or "" for a plain block.
    public let language: String
    public let text: String
    /// The nearest heading above the block, without its `#`s (`5. Without the library`).
    public let heading: String
}

extension MarkdownBlock {
    /// Every fenced block of the document at `path` (relative to the package root), in order.
    public static func all(in path: String) throws -> [MarkdownBlock] {
        let text = try String(contentsOfFile: packageRoot + "/" + path, encoding: .utf8)
        var blocks: [MarkdownBlock] = []
        var heading = ""
        var open: (language: String, indent: Int, lines: [String])?
        for line in text.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var block = open {
                if trimmed == "```" {
                    blocks.append(
                        MarkdownBlock(
                            language: block.language, text: block.lines.joined(separator: "\n") + "\n", heading: heading))
                    open = nil
                } else {
                    block.lines.append(String(line.dropFirst(min(block.indent, line.prefix { $0 == " " }.count))))
                    open = block
                }
            } else if trimmed.hasPrefix("```") {
                open = (String(trimmed.dropFirst(3)), line.prefix { $0 == " " }.count, [])
            } else if line.hasPrefix("#") {
                heading = String(line.drop { $0 == "#" }).trimmingCharacters(in: .whitespaces)
            }
        }
        if open != nil { throw SocketError("\(path): a fenced block is never closed") }
        return blocks
    }

    /// The blocks of `language` in the document at `path`.
    public static func all(_ language: String, in path: String) throws -> [MarkdownBlock] {
        try all(in: path).filter { $0.language == language }
    }
}
