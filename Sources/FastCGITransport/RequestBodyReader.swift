/// Reads a request body through a `read(buffer, count) -> bytes read` function without trusting
/// `CONTENT_LENGTH`: at most `limit + 1` bytes are kept, so an oversized body is detected by
/// what arrives, and memory never grows with what a client claims.
struct RequestBodyReader {
    /// The largest body a handler accepts; one byte more marks a body as too large.
    let limit: Int

    /// The body read, and whether it is larger than `limit` (declared or actual).
    struct Result {
        var bytes: [UInt8]
        var tooLarge: Bool
    }

    /// Reads up to `min(declaredLength ?? ∞, limit + 1)` bytes. `declaredLength` beyond the
    /// limit is refused before reading anything.
    func read(declaredLength: Int?, untilEndOfStream: Bool, _ read: (UnsafeMutablePointer<CChar>, Int32) -> Int32) -> Result {
        if let declaredLength, declaredLength > limit { return Result(bytes: [], tooLarge: true) }
        let wanted = untilEndOfStream ? limit + 1 : min(declaredLength ?? 0, limit + 1)
        var bytes = [UInt8]()
        var chunk = [CChar](repeating: 0, count: 4096)
        while bytes.count < wanted {
            let ask = Int32(min(chunk.count, wanted - bytes.count))
            let got = chunk.withUnsafeMutableBufferPointer { read($0.baseAddress!, ask) }
            if got <= 0 { break }
            bytes.append(contentsOf: chunk[0..<Int(got)].lazy.map { UInt8(bitPattern: $0) })
        }
        return Result(bytes: bytes, tooLarge: bytes.count > limit)
    }
}
