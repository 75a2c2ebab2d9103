/// One header line as libcurl hands it to the header callback, read in place: the callback runs
/// for every line of every answer, and building Swift strings (lowercased, trimmed through
/// Foundation) there cost a tenth of the sweep's CPU.
enum HeaderLine: Equatable {
    /// `HTTP/2 200`: a response starts (after an interim one, it starts over).
    case statusLine
    /// `apns-id`, nil when empty.
    case apnsID(String?)
    /// `content-length`, nil when not a number.
    case contentLength(Int?)
    /// Any other line, the blank one that ends the headers included.
    case other

    init(_ line: UnsafeRawBufferPointer) {
        if line.starts(with: "HTTP/".utf8) {
            self = .statusLine
            return
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            self = .other
            return
        }
        let name = UnsafeRawBufferPointer(rebasing: line[..<colon])
        let value = Self.trimmed(UnsafeRawBufferPointer(rebasing: line[(colon + 1)...]))
        if Self.name(name, is: "apns-id") {
            self = .apnsID(value.isEmpty ? nil : String(decoding: value, as: UTF8.self))
        } else if Self.name(name, is: "content-length") {
            self = .contentLength(Int(String(decoding: value, as: UTF8.self)))
        } else {
            self = .other
        }
    }

    /// Header names are case-insensitive (ASCII); `lowercase` is given in lowercase.
    private static func name(_ name: UnsafeRawBufferPointer, is lowercase: StaticString) -> Bool {
        guard name.count == lowercase.utf8CodeUnitCount else { return false }
        let expected = UnsafeRawBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
        return zip(name, expected).allSatisfy { byte, wanted in
            (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte) == wanted
        }
    }

    /// Without the spaces, tabs and line ends around it.
    private static func trimmed(_ value: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        guard let first = value.firstIndex(where: { !isSpace($0) }),
            let last = value.lastIndex(where: { !isSpace($0) })
        else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(rebasing: value[first...last])
    }
}
