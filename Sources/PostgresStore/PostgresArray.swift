import PostgresClient

/// A whole column of a batch as one parameter: PostgreSQL's array literal, unnested by the
/// statement (`unnest($1::text[], $2::bigint[], ...)`), so a batch of a thousand rows is one
/// statement and one round trip, not a thousand.
enum PostgresArray {
    /// `{"a","b",NULL}`: every element quoted, `"` and `\` escaped, nil as NULL. Built as UTF-8
    /// bytes: both escaped characters are ASCII, so no byte of another character is one of them
    /// (a batch's columns are thousands of tokens, and walking them as `Character`s cost more
    /// than the statement).
    static func text(_ values: [String?]) -> PostgresValue {
        var literal: [UInt8] = []
        literal.reserveCapacity(values.reduce(2) { $0 + ($1?.utf8.count ?? 4) + 3 })
        literal.append(UInt8(ascii: "{"))
        for (index, value) in values.enumerated() {
            if index > 0 { literal.append(UInt8(ascii: ",")) }
            guard let value else {
                literal += "NULL".utf8
                continue
            }
            literal.append(quote)
            for byte in value.utf8 {
                if byte == quote || byte == backslash { literal.append(backslash) }
                literal.append(byte)
            }
            literal.append(quote)
        }
        literal.append(UInt8(ascii: "}"))
        return .text(String(decoding: literal, as: UTF8.self))
    }

    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")

    /// `{1,2,NULL}`.
    static func integers(_ values: [Int64?]) -> PostgresValue {
        .text("{" + values.map { $0.map(String.init) ?? "NULL" }.joined(separator: ",") + "}")
    }

    /// Bytes as lowercase hex text, for `decode(x, 'hex')` in a statement.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// The SQL of a registration's attempts as one bytea, the entries joined newest first, for
/// `AttemptRing.decode` (the column holds one element per attempt, so a sweep puts an answer
/// first in the UPDATE that writes it, with no read before).
let attemptsJoined = joinedAttempts(alias: nil)

/// `attemptsJoined` of the table named `alias` in the statement.
func joinedAttempts(alias: String?) -> String {
    let column = alias.map { $0 + ".attempts" } ?? "attempts"
    return "(SELECT coalesce(string_agg(e, ''::bytea ORDER BY o), ''::bytea) FROM unnest(\(column)) WITH ORDINALITY AS a(e, o))"
}
