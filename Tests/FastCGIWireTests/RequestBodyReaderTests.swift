import Testing

@testable import FastCGIWire

/// A stream of `bytes` read in chunks of at most `chunk`, counting how much was asked for.
final class ByteStream {
    let bytes: [UInt8]
    let chunk: Int
    var offset = 0

    init(_ count: Int, chunk: Int = 4096) {
        bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0) }
        self.chunk = chunk
    }

    func read(_ buffer: UnsafeMutablePointer<CChar>, _ count: Int32) -> Int32 {
        let n = min(Int(count), chunk, bytes.count - offset)
        for index in 0..<n { buffer[index] = CChar(bitPattern: bytes[offset + index]) }
        offset += n
        return Int32(n)
    }
}

@Suite struct RequestBodyReaderTests {
    let reader = RequestBodyReader(limit: 100)

    @Test func aBodyWithinTheLimitIsReadWhole() {
        let stream = ByteStream(60, chunk: 7)
        let result = reader.read(declaredLength: 60, untilEndOfStream: true, stream.read)
        #expect(result.bytes == stream.bytes && !result.tooLarge)
    }

    @Test func aDeclaredLengthOverTheLimitReadsNothing() {
        let stream = ByteStream(500)
        let result = reader.read(declaredLength: 101, untilEndOfStream: true, stream.read)
        #expect(result.tooLarge && result.bytes.isEmpty && stream.offset == 0)
    }

    @Test func aBodyLongerThanItsDeclaredLengthIsCaughtByWhatArrives() {
        let stream = ByteStream(500)
        let result = reader.read(declaredLength: 10, untilEndOfStream: true, stream.read)
        #expect(result.tooLarge && result.bytes.count == 101)
    }

    @Test func underCGIOnlyTheDeclaredLengthIsRead() {
        let stream = ByteStream(500)
        let result = reader.read(declaredLength: 10, untilEndOfStream: false, stream.read)
        #expect(!result.tooLarge && result.bytes == Array(stream.bytes.prefix(10)) && stream.offset == 10)
        #expect(reader.read(declaredLength: nil, untilEndOfStream: false, ByteStream(5).read).bytes.isEmpty)
    }
}
