import Testing

@testable import APNsHTTP2

/// Header lines as libcurl hands them over (with their line end), read in place.
@Suite struct HeaderLineTests {
    func read(_ text: String) -> HeaderLine {
        Array(text.utf8).withUnsafeBytes { HeaderLine($0) }
    }

    @Test func theStatusLineStartsAResponse() {
        #expect(read("HTTP/2 200 \r\n") == .statusLine)
        #expect(read("HTTP/1.1 100 Continue\r\n") == .statusLine)
    }

    @Test func apnsIDIsReadWhateverTheCaseAndSpacing() {
        #expect(read("apns-id: 8E7C1C2B-8B0A-4F0F-9D4B-3A5A1E6C2D11\r\n") == .apnsID("8E7C1C2B-8B0A-4F0F-9D4B-3A5A1E6C2D11"))
        #expect(read("APNS-ID:\tabc \r\n") == .apnsID("abc"))
        #expect(read("apns-id:   \r\n") == .apnsID(nil))
        #expect(read("apns-id:\r\n") == .apnsID(nil))
    }

    @Test func contentLengthIsANumberOrNothing() {
        #expect(read("content-length: 42\r\n") == .contentLength(42))
        #expect(read("Content-Length:0\r\n") == .contentLength(0))
        #expect(read("content-length: lots\r\n") == .contentLength(nil))
        #expect(read("content-length: \r\n") == .contentLength(nil))
    }

    @Test func everythingElseIsOther() {
        #expect(read("\r\n") == .other)
        #expect(read("") == .other)
        #expect(read("date: Mon, 01 Dec 2026 00:00:00 GMT\r\n") == .other)
        #expect(read("apns-idx: 1\r\n") == .other)
        #expect(read("apns-i: 1\r\n") == .other)
        #expect(read("content-type: application/json\r\n") == .other)
        #expect(read("no colon here\r\n") == .other)
    }
}
