/// A strict RFC 8259 reader for request bodies (and APNs' error bodies): validates the whole document and returns the
/// top-level object's members, keeping only strings, numbers and nulls (the API reads nothing else).
///
/// Why not `JSONSerialization`: it cost about as much CPU as the rest of a registration (a
/// `Data` copy, an `NSDictionary`, bridging every value). What it accepted, this accepts, except
/// trailing commas and UTF-16/32 bodies, which RFC 8259 does not allow either. Like it, this
/// refuses more than 512 nested arrays/objects, invalid UTF-8, unescaped control characters, lone
/// surrogate escapes and numbers beyond `Double`; a UTF-8 byte order mark is skipped.
public struct JSONReader {
    /// The deepest nesting accepted (JSONSerialization's own limit).
    public static let maximumDepth = 512

    /// Why a body was refused: not JSON at all, or JSON that is not an object.
    public enum Failure: Error, Equatable, Sendable {
        case invalid
        case notAnObject
    }

    /// A member's value, as far as the API cares.
    public enum Value: Equatable, Sendable {
        case string(String)
        case null
        /// A number (the `interval` of a registration), as `Double` reads its text.
        case number(Double)
        /// `true` or `false` (the device state's `lowPower`, `changed`).
        case bool(Bool)
        /// An array or object.
        case other
    }

    /// The members of the top-level object, in order; duplicate names are all kept.
    public struct Members: Sendable {
        public var entries: [(name: String, value: Value)] = []

        /// The value of `name`: the last one, as `JSONSerialization` decided duplicates.
        public subscript(name: String) -> Value? {
            entries.last { $0.name == name }?.value
        }
    }

    /// Reads `bytes` as one JSON document whose top level is an object.
    public static func members(of bytes: [UInt8]) throws(Failure) -> Members {
        var result: Result<Members, Failure> = .failure(.invalid)
        bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer)
            result = Result { () throws(Failure) in try reader.document() }
        }
        return try result.get()
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var depth = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    // MARK: - Grammar

    private mutating func document() throws(Failure) -> Members {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        var members: Members?
        if peek() == UInt8(ascii: "{") {
            members = try object(collecting: true)
        } else {
            try value()
        }
        skipWhitespace()
        guard index == bytes.count else { throw .invalid }
        // Only a whole valid document decides between "not JSON" and "not an object".
        guard let members else { throw .notAnObject }
        return members
    }

    /// Any value, checked and skipped.
    private mutating func value() throws(Failure) {
        guard let byte = peek() else { throw .invalid }
        switch byte {
        case UInt8(ascii: "{"): try object(collecting: false)
        case UInt8(ascii: "["): try array()
        case UInt8(ascii: "\""): try string(keeping: false)
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw .invalid
        }
    }

    /// An object at `index` (its `{`); its members when `collecting` (the top level only). A
    /// nested object is only checked and skipped, its result unused.
    @discardableResult
    private mutating func object(collecting: Bool) throws(Failure) -> Members {
        var members = Members()
        // A body's usual members at once, not an array grown (and reallocated) member by member.
        if collecting { members.entries.reserveCapacity(4) }
        guard try enter(closingWith: UInt8(ascii: "}")) else { return members }
        repeat {
            guard peek() == UInt8(ascii: "\"") else { throw .invalid }
            let name = try string(keeping: collecting)
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            if collecting {
                members.entries.append((name ?? "", try memberValue()))
            } else {
                try value()
            }
        } while try another(closingWith: UInt8(ascii: "}"))
        return members
    }

    /// A top-level member's value: strings and numbers kept, everything else only checked.
    private mutating func memberValue() throws(Failure) -> Value {
        switch peek() {
        case UInt8(ascii: "\""): return .string(try string(keeping: true) ?? "")
        case let byte? where byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte):
            return .number(try number())
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        default:
            try value()
            return .other
        }
    }

    private mutating func array() throws(Failure) {
        guard try enter(closingWith: UInt8(ascii: "]")) else { return }
        repeat {
            try value()
        } while try another(closingWith: UInt8(ascii: "]"))
    }

    /// Steps over an opening bracket, refusing nesting beyond `maximumDepth`; `false` (and the
    /// level left again) when `close` follows at once, an empty object or array.
    private mutating func enter(closingWith close: UInt8) throws(Failure) -> Bool {
        depth += 1
        guard depth <= Self.maximumDepth else { throw .invalid }
        index += 1
        skipWhitespace()
        guard peek() == close else { return true }
        index += 1
        depth -= 1
        return false
    }

    /// After a member or element: `true` past a comma (another follows), `false` past `close`
    /// (the level left); anything else is invalid.
    private mutating func another(closingWith close: UInt8) throws(Failure) -> Bool {
        skipWhitespace()
        if peek() == UInt8(ascii: ",") {
            index += 1
            skipWhitespace()
            return true
        }
        try expect(close)
        depth -= 1
        return false
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw .invalid }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { throw .invalid }
        index += count
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, and finite as a `Double`.
    @discardableResult
    private mutating func number() throws(Failure) -> Double {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        if peek() == UInt8(ascii: "0") {
            index += 1
        } else {
            guard try digits() > 0 else { throw .invalid }
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard try digits() > 0 else { throw .invalid }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard try digits() > 0 else { throw .invalid }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let parsed = Double(text), parsed.isFinite else { throw .invalid }
        return parsed
    }

    private mutating func digits() throws(Failure) -> Int {
        let start = index
        while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }

    // MARK: - Bytes

    func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func expect(_ byte: UInt8) throws(Failure) {
        guard peek() == byte else { throw .invalid }
        index += 1
    }

    /// JSON's four whitespace bytes only (not form feed, not no-break space).
    mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }
}
