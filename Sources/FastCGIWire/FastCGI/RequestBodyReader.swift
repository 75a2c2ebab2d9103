/// Reads a request body through a `read(buffer, count) -> bytes read` function without trusting
/// `CONTENT_LENGTH`: at most `limit + 1` bytes are kept, so an oversized body is detected by
/// what arrives, and memory never grows with what a client claims.
///
/// One reader per worker thread: it reads into a buffer of its own, kept for its life, and keeps
/// only what came. An array of the whole limit per body (or a temporary buffer of that size, which
/// Swift puts on the heap too) cost a large allocation per request from malloc's slower bins.
final class RequestBodyReader {
    /// The largest body a responder accepts; one byte more marks a body as too large.
    let limit: Int
    private let buffer: UnsafeMutablePointer<CChar>

    init(limit: Int) {
        self.limit = limit
        buffer = .allocate(capacity: limit + 1)
    }

    deinit { buffer.deallocate() }

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
        var count = 0
        while count < wanted {
            let got = read(buffer + count, Int32(min(4096, wanted - count)))
            if got <= 0 { break }
            count += Int(got)
        }
        let bytes = [UInt8](UnsafeRawBufferPointer(start: buffer, count: count))
        return Result(bytes: bytes, tooLarge: bytes.count > limit)
    }
}
