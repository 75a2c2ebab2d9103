#if canImport(Glibc)
    import Glibc
#endif

/// The parameters of one request: FastCGI params under a FastCGI server, the process environment
/// under a CGI server (RFC 3875 section 4.1), as `NAME -> value`.
public struct RequestParameters: Sendable {
    public let values: [String: String]

    public init(_ values: [String: String]) { self.values = values }

    /// The value of `name` (names are case-sensitive, as in the protocol).
    public subscript(name: String) -> String? { values[name] }

    /// Reads a NULL-terminated `NAME=value` array, the shape of libfcgi's `FCGX_ParamArray`.
    /// Split on bytes with `strchr`: searching the text as `Character`s (grapheme breaking) was a
    /// quarter of the responder's instructions.
    init(environ pointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) {
        var values: [String: String] = [:]
        values.reserveCapacity(16)
        var cursor = pointer
        while let entry = cursor?.pointee {
            if let equals = strchr(entry, Int32(UInt8(ascii: "="))) {
                let name = UnsafeRawBufferPointer(start: entry, count: equals - entry)
                values[String(decoding: name.assumingMemoryBound(to: UInt8.self), as: UTF8.self)] = String(cString: equals + 1)
            }
            cursor = cursor?.successor()
        }
        self.values = values
    }

    /// `CONTENT_LENGTH` as a byte count; absent, empty or malformed counts as no length.
    var contentLength: Int? {
        guard let text = values["CONTENT_LENGTH"], let length = Int(text), length >= 0 else { return nil }
        return length
    }
}
