/// A value bound to a `$n` parameter. Text, integers and booleans go in PostgreSQL's text format,
/// so the server reads them as whatever type the statement gives the parameter; bytes go in
/// binary format (no escaping on either side), so a bytea parameter's type must be clear from the
/// SQL (`$1::bytea` where it is not).
package enum PostgresValue: Sendable, Equatable {
    case text(String)
    case integer(Int64)
    case bytea([UInt8])
    case bool(Bool)
    case null
}

/// Values laid out as libpq's parameter arrays want them: one buffer holding every value (text
/// zero-terminated), with each value's offset, length and format.
struct EncodedParameters {
    private var storage: [UInt8] = []
    /// Each value's offset in `storage`; -1 for NULL.
    private var offsets: [Int] = []
    private var lengths: [Int32] = []
    private var formats: [Int32] = []

    /// Fails on a text value holding a zero byte: libpq reads text up to the first zero, so the
    /// server would silently store less than it was given.
    init(_ values: [PostgresValue], sql: String) throws(PostgresError) {
        for value in values {
            switch value {
            case .null:
                append(nil, format: 0)
            case .text(let text):
                guard !text.utf8.contains(0) else {
                    throw PostgresError(
                        kind: .other, message: "a text value holds a zero byte, which PostgreSQL text cannot store", sql: sql)
                }
                append(Array(text.utf8), format: 0)
            case .integer(let number): append(Array(String(number).utf8), format: 0)
            case .bool(let flag): append(flag ? [UInt8(ascii: "t")] : [UInt8(ascii: "f")], format: 0)
            case .bytea(let bytes): append(bytes, format: 1)
            }
        }
        // Never empty, so an empty bytea still gets a pointer (a null pointer would mean NULL).
        storage.append(0)
    }

    private mutating func append(_ bytes: [UInt8]?, format: Int32) {
        guard let bytes else {
            offsets.append(-1)
            lengths.append(0)
            formats.append(0)
            return
        }
        offsets.append(storage.count)
        storage += bytes
        lengths.append(Int32(clamping: bytes.count))
        formats.append(format)
        if format == 0 { storage.append(0) }
    }

    var count: Int32 { Int32(offsets.count) }

    /// Calls `body` with libpq's four arrays (values, lengths, formats), valid for the call only.
    func withArrays<R>(
        _ body: (
            _ count: Int32, _ values: UnsafePointer<UnsafePointer<CChar>?>?, _ lengths: UnsafePointer<Int32>?,
            _ formats: UnsafePointer<Int32>?
        ) -> R
    ) -> R {
        storage.withUnsafeBytes { buffer in
            let base = buffer.baseAddress!.assumingMemoryBound(to: CChar.self)
            let pointers: [UnsafePointer<CChar>?] = offsets.map { $0 < 0 ? nil : base + $0 }
            return pointers.withUnsafeBufferPointer { values in
                lengths.withUnsafeBufferPointer { lengths in
                    formats.withUnsafeBufferPointer { formats in
                        body(count, values.baseAddress, lengths.baseAddress, formats.baseAddress)
                    }
                }
            }
        }
    }
}
