#if canImport(Glibc)
    import Glibc
#endif

/// The parameters of one request: FastCGI params under a FastCGI server, the process environment
/// under a CGI server (RFC 3875 section 4.1), as `NAME -> value`.
///
/// Kept as the `NAME=value` C strings they came as, one after the other in one buffer, and found
/// by a scan: a request reads a handful of its ten or so parameters, and a dictionary of them
/// cost two strings and a hashed slot per parameter (6% of a registration's instructions).
public struct RequestParameters: Sendable {
    private let entries: [CChar]

    public init(_ values: [String: String]) {
        var entries: [CChar] = []
        for (name, value) in values {
            entries.append(contentsOf: (name + "=" + value).utf8CString)
        }
        self.entries = entries
    }

    /// Every parameter; a name given twice has its last value.
    public var values: [String: String] {
        var values: [String: String] = [:]
        forEachEntry { entry in
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                values[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
        }
        return values
    }

    /// The value of `name` (names are case-sensitive, as in the protocol); of the last entry
    /// when it is given twice.
    public subscript(name: String) -> String? {
        name.withCString { wanted in
            let count = strlen(wanted)
            var found: UnsafePointer<CChar>?
            forEachEntry { entry in
                // The entry is `wanted`, then `=`, then the value.
                if strncmp(entry, wanted, count) == 0, entry[count] == CChar(UInt8(ascii: "=")) { found = entry + count + 1 }
            }
            return found.map { String(cString: $0) }
        }
    }

    /// Calls `body` with each entry, a C string, in order.
    private func forEachEntry(_ body: (UnsafePointer<CChar>) -> Void) {
        entries.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return }
            var entry = base
            while entry < base + all.count {
                body(entry)
                entry += strlen(entry) + 1
            }
        }
    }

    /// Reads a NULL-terminated `NAME=value` array, the shape of libfcgi's `FCGX_ParamArray`, in
    /// one copy. An entry without `=` is no parameter and is left out.
    init(environ pointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) {
        var total = 0
        var cursor = pointer
        while let entry = cursor?.pointee {
            if strchr(entry, Int32(UInt8(ascii: "="))) != nil { total += strlen(entry) + 1 }
            cursor = cursor?.successor()
        }
        entries = [CChar](unsafeUninitializedCapacity: total) { buffer, count in
            count = 0
            var cursor = pointer
            while let entry = cursor?.pointee {
                if strchr(entry, Int32(UInt8(ascii: "="))) != nil {
                    let length = strlen(entry) + 1
                    (buffer.baseAddress! + count).update(from: entry, count: length)
                    count += length
                }
                cursor = cursor?.successor()
            }
        }
    }

    /// `CONTENT_LENGTH` as a byte count; absent, empty or malformed counts as no length.
    var contentLength: Int? {
        guard let text = self["CONTENT_LENGTH"], let length = Int(text), length >= 0 else { return nil }
        return length
    }
}
