/// Reads a request body through a `read(buffer, count) -> bytes read` function without trusting
/// `CONTENT_LENGTH`: at most `limit + 1` bytes are kept, so an oversized body is detected by
/// what arrives, and memory never grows with what a client claims.
struct RequestBodyReader {
    /// The largest body a responder accepts; one byte more marks a body as too large.
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
        // Read straight into the result's storage: no chunk buffer, no copy.
        let bytes = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, count in
            count = 0
            while count < wanted {
                let ask = Int32(min(4096, wanted - count))
                let destination = UnsafeMutableRawPointer(buffer.baseAddress! + count).assumingMemoryBound(to: CChar.self)
                let got = read(destination, ask)
                if got <= 0 { break }
                count += Int(got)
            }
        }
        return Result(bytes: bytes, tooLarge: bytes.count > limit)
    }
}
