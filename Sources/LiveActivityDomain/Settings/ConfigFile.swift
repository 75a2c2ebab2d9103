import Glibc

/// The optional `KEY=value` file named by `LIVEACTIVITY_CONFIG` (SPEC section 6).
enum ConfigFile {
    /// Parses `text`: blank lines and `#` comments are skipped, values may be quoted, and a
    /// key may be written `export KEY=value` so the same file can be sourced by a shell.
    static func parse(_ text: String, path: String) throws(ConfigurationError) -> [String: String] {
        var values: [String: String] = [:]
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = rawLine.trimmingBlanks()
            if line.hasSuffix("\r") { line.removeLast() }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") { line = String(line.dropFirst(7)).trimmingBlanks() }
            guard let equals = line.firstIndex(of: "=") else {
                throw .badLine(path: path, line: index + 1)
            }
            let key = line[..<equals].trimmingBlanks()
            var value = line[line.index(after: equals)...].trimmingBlanks()
            guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                throw .badLine(path: path, line: index + 1)
            }
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            // PEM text over several lines is written with literal \n in a one-line value.
            values[key] = value.replacing("\\n", with: "\n")
        }
        return values
    }

    static func load(path: String) throws(ConfigurationError) -> [String: String] {
        let text: String
        do throws(FileText.Problem) {
            text = try FileText.read(path)
        } catch {
            throw .unreadableFile(path: path, reason: error.description)
        }
        return try parse(text, path: path)
    }
}
