/// A failed libpq call: what kind of failure it is, the SQLSTATE when the server sent one, the
/// server's (or libpq's) message and the SQL it ran. Bound values are never included, nor the
/// server's DETAIL (which quotes a row's values), nor a password: tokens and credentials cannot
/// leak into logs through an error. The store maps `kind` onto its backend-neutral fault.
package struct PostgresError: Error, CustomStringConvertible, Sendable {
    package let kind: Kind
    /// The five-character SQLSTATE (`23505`); nil when libpq itself failed (a lost connection,
    /// a timeout, a refused connect).
    package let sqlstate: String?
    /// The server's primary message, or libpq's own.
    package let message: String
    /// The statement's text (no values), when the failure belongs to one.
    package let sql: String?
    /// The constraint a 23xxx violation names.
    package let constraint: String?
    /// The failed item's index, when this failure is one item of a pipeline.
    package internal(set) var pipelineItem: Int?

    package init(
        kind: Kind, sqlstate: String? = nil, message: String, sql: String? = nil, constraint: String? = nil,
        pipelineItem: Int? = nil
    ) {
        self.kind = kind
        self.sqlstate = sqlstate
        self.message = message
        self.sql = sql
        self.constraint = constraint
        self.pipelineItem = pipelineItem
    }

    /// An error the server reported, classified by its SQLSTATE.
    init(sqlstate: String?, message: String, sql: String?, constraint: String? = nil) {
        var kind = sqlstate.map(Kind.init(sqlstate:)) ?? .other
        // 28000 is also pg_hba.conf's refusal; only the message tells a missing role (English, as
        // the server's lc_messages has it: a translated one stays `authentication`).
        if sqlstate == "28000", message.contains("role \""), message.hasSuffix("\" does not exist") {
            kind = .missingRole
        }
        self.init(
            kind: kind, sqlstate: sqlstate, message: Self.withoutValues(message, sqlstate: sqlstate), sql: sql,
            constraint: constraint)
    }

    package var description: String {
        var text = "PostgreSQL error"
        if let sqlstate { text += " \(sqlstate)" }
        text += ": \(message)"
        if let pipelineItem { text += " (pipeline item \(pipelineItem))" }
        if let sql { text += " (in: \(sql.prefix(120)))" }
        return text
    }

    /// Lets a `catch` test the SQLSTATE or its class: `catch let e as PostgresError where "23505" ~= e`,
    /// or `"23" ~= e` for any integrity violation.
    package static func ~= (code: String, error: PostgresError) -> Bool {
        guard let sqlstate = error.sqlstate, !code.isEmpty else { return false }
        return sqlstate.hasPrefix(code)
    }

    /// Class 22 (data exception) messages quote the offending value (`invalid input syntax for
    /// type bigint: "..."`), which may be a bound value: the quoted parts are cut out.
    static func withoutValues(_ message: String, sqlstate: String?) -> String {
        guard let sqlstate, sqlstate.hasPrefix("22") else { return message }
        var result = ""
        var inQuotes = false
        for character in message {
            if character == "\"" {
                if !inQuotes { result += "\"…\"" }
                inQuotes.toggle()
            } else if !inQuotes {
                result.append(character)
            }
        }
        return result
    }
}
