extension JSONReader {
    /// A string at `index` (its opening quote): checked, and returned when `keeping`.
    /// Refuses unescaped control characters, unknown escapes, lone surrogates and ill-formed
    /// UTF-8 (overlong forms, encoded surrogates, beyond U+10FFFF), as RFC 8259 and Unicode ask.
    @discardableResult
    mutating func string(keeping: Bool) throws(Failure) -> String? {
        index += 1
        let start = index
        // Unescaped runs are copied as they are; `decoded` is needed only once an escape appears.
        var decoded: [UInt8]?
        while true {
            // A run of printable ASCII other than a quote or a backslash (a whole token, a name)
            // in one tight loop: byte by byte through `peek` and the switch below it was a third
            // of the body's parsing.
            let run = index
            while index < bytes.count, bytes[index] >= 0x20, bytes[index] < 0x80, bytes[index] != UInt8(ascii: "\""),
                bytes[index] != UInt8(ascii: "\\")
            {
                index += 1
            }
            if decoded != nil, index > run { decoded!.append(contentsOf: bytes[run..<index]) }
            guard let byte = peek() else { throw .invalid }
            switch byte {
            case UInt8(ascii: "\""):
                defer { index += 1 }
                guard keeping else { return nil }
                if let decoded { return String(decoding: decoded, as: UTF8.self) }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            case UInt8(ascii: "\\"):
                if decoded == nil { decoded = Array(bytes[start..<index]) }
                index += 1
                try escape(into: &decoded!)
            case 0..<0x20:
                throw .invalid
            default:
                let end = try utf8Sequence(at: index)
                decoded?.append(contentsOf: bytes[index..<end])
                index = end
            }
        }
    }

    /// The escape after a backslash, appended to `out` as UTF-8.
    private mutating func escape(into out: inout [UInt8]) throws(Failure) {
        guard let byte = peek() else { throw .invalid }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(byte)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar) {
                // A high surrogate must be followed by an escaped low one.
                guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw .invalid }
                index += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw .invalid }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw .invalid
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw .invalid }
            out.append(contentsOf: UTF8.encode(unicode)!)
        default:
            throw .invalid
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard bytes.count - index >= 4 else { throw .invalid }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .invalid
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// The end of the well-formed UTF-8 sequence starting at `start` (Unicode table 3-7).
    private func utf8Sequence(at start: Int) throws(Failure) -> Int {
        let lead = bytes[start]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF  // the allowed range of the second byte
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default: throw .invalid
        }
        guard bytes.count - start >= length else { throw .invalid }
        guard bytes[start + 1] >= low, bytes[start + 1] <= high else { throw .invalid }
        for offset in 2..<length where bytes[start + offset] & 0xC0 != 0x80 { throw .invalid }
        return start + length
    }
}
