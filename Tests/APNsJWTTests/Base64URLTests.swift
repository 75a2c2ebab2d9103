import APNsJWT
import Testing

@Suite struct Base64URLTests {
    @Test func encodesTheRFC4648Vectors() {
        // RFC 4648 section 10, with padding removed.
        let vectors = ["": "", "f": "Zg", "fo": "Zm8", "foo": "Zm9v", "foob": "Zm9vYg", "fooba": "Zm9vYmE", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            #expect(Base64URL.encode(plain) == encoded)
            #expect(Base64URL.decode(encoded) == Array(plain.utf8))
        }
    }

    @Test func usesTheURLSafeAlphabet() {
        #expect(Base64URL.encode([0xfb, 0xff, 0xbf]) == "-_-_")
        #expect(Base64URL.encode([0xfb, 0xff]) == "-_8")
        #expect(Base64URL.decode("-_-_") == [0xfb, 0xff, 0xbf])
    }

    @Test func encodesTheJWTHeaderOfRFC7515() {
        // RFC 7515 appendix A.3.1: {"alg":"ES256"} encodes to eyJhbGciOiJFUzI1NiJ9.
        #expect(Base64URL.encode("{\"alg\":\"ES256\"}") == "eyJhbGciOiJFUzI1NiJ9")
    }

    @Test func rejectsPaddingForeignCharactersAndImpossibleLengths() {
        #expect(Base64URL.decode("Zg==") == nil)
        #expect(Base64URL.decode("Zm9v+") == nil)
        #expect(Base64URL.decode("Zm/v") == nil)
        #expect(Base64URL.decode("Z") == nil)
        #expect(Base64URL.decode("Zh") == nil)  // non-zero leftover bits
    }

    @Test func roundTripsEveryByteValue() {
        let bytes = (0...255).map { UInt8($0) }
        for length in 0..<8 {
            let slice = Array(bytes.suffix(from: length * 7))
            #expect(Base64URL.decode(Base64URL.encode(slice)) == slice)
        }
    }
}
