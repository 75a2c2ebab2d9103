import CPostgreSQL

/// A PostgreSQL connection string (`postgresql://` or `postgres://` URI, or libpq's `key=value`
/// form), parsed by libpq's own parser and checked, so a wrong one fails with a message naming
/// what is wrong before any connection is tried. `redacted` is the form for log lines: every
/// secret option (the password, in the URI or as `password=`) is hidden, and no error from here
/// quotes a value the string held.
package struct PostgresConninfo: Sendable, CustomStringConvertible {
    /// The options the string sets, in libpq's order, with whether each is a secret.
    let options: [Option]

    struct Option: Sendable {
        let keyword: String
        let value: String
        /// libpq marks password fields with the display character `*`.
        let isSecret: Bool
    }

    package init(_ text: String) throws(PostgresError) {
        // libpq parses the string: this is the first call of a program on PostgreSQL.
        do { try PostgresLibrary.load() } catch { throw PostgresError(kind: .other, message: error.description) }
        if let scheme = text.firstRange(of: "://"), !text.hasPrefix("postgresql://"), !text.hasPrefix("postgres://") {
            let given = text[..<scheme.lowerBound].prefix(20)
            throw Self.invalid("a URI must begin postgresql:// or postgres://, not \(given)://")
        }
        var message: UnsafeMutablePointer<CChar>?
        guard let parsed = PQconninfoParse(text, &message) else {
            defer { PQfreemem(message) }
            let said = message.map { String(cString: $0) } ?? "out of memory"
            throw Self.invalid(Self.withoutQuotedValues(said, from: text))
        }
        defer { PQconninfoFree(parsed) }
        var options: [Option] = []
        var entry = parsed
        while let keyword = entry.pointee.keyword {
            if let value = entry.pointee.val {
                let display = entry.pointee.dispchar.map { String(cString: $0) } ?? ""
                options.append(Option(keyword: String(cString: keyword), value: String(cString: value), isSecret: display == "*"))
            }
            entry += 1
        }
        self.options = options
        try check()
    }

    /// The value the string gives `keyword`, nil when it sets none.
    package func value(_ keyword: String) -> String? { options.first { $0.keyword == keyword }?.value }

    /// The database named, if any (libpq's default is the user's name).
    package var database: String? { value("dbname") }

    /// The role named, if any (libpq's default is the operating system user's name).
    package var user: String? { value("user") }

    /// Whether the string itself holds a password (rather than leaving it to the password file).
    package var holdsPassword: Bool { options.contains { $0.isSecret && !$0.value.isEmpty } }

    /// The string for a log line, in `key=value` form, secrets shown as `***`.
    package var redacted: String {
        options.map { option in
            "\(option.keyword)=\(option.isSecret ? "***" : Self.quoted(option.value))"
        }.joined(separator: " ")
    }

    package var description: String { redacted }

    /// libpq's quoting of a `key=value` value: in single quotes, with `\` before `'` and `\`,
    /// when it is empty or holds a space or either of those.
    static func quoted(_ value: String) -> String {
        guard value.isEmpty || value.contains(where: { $0 == " " || $0 == "'" || $0 == "\\" }) else { return value }
        var quoted = "'"
        for character in value {
            if character == "'" || character == "\\" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "'"
    }

    static func invalid(_ message: String) -> PostgresError {
        PostgresError(kind: .invalidConnectionString, message: "not a PostgreSQL connection string: \(message)")
    }

    /// libpq's parse errors quote what they could not read (`missing "=" after "..."`), which
    /// may be part of a password: a quoted part that is not an option's name is cut out.
    static func withoutQuotedValues(_ message: String, from text: String) -> String {
        let trimmed = message.hasSuffix("\n") ? String(message.dropLast()) : message
        let parts = trimmed.split(separator: "\"", omittingEmptySubsequences: false)
        return parts.enumerated().map { offset, part in
            guard offset % 2 == 1 else { return String(part) }
            return knownKeywords.contains(String(part)) ? "\"\(part)\"" : "\"…\""
        }.joined()
    }

    /// The option names this libpq knows.
    static let knownKeywords: Set<String> = {
        guard let defaults = PQconndefaults() else { return [] }
        defer { PQconninfoFree(defaults) }
        var names: Set<String> = []
        var entry = defaults
        while let keyword = entry.pointee.keyword {
            names.insert(String(cString: keyword))
            entry += 1
        }
        return names
    }()
}
