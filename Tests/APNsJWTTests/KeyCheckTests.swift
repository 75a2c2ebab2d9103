import APNsJWT
import Foundation
import SystemSupport
import TestSupport
import Testing

/// The key's shape is read without libcrypto (`ES256KeyCheck`), so an idle sweep need not load
/// it: it must judge every key as libcrypto does, with the same error.
@Suite struct KeyCheckTests {
    /// What libcrypto says of `pem` (`ES256Signer`) and what the check says, side by side.
    func verdicts(_ pem: String) -> (libcrypto: ES256KeyError?, check: ES256KeyError?) {
        var libcrypto: ES256KeyError?
        var check: ES256KeyError?
        do throws(ES256KeyError) { _ = try ES256Signer(pem: pem) } catch { libcrypto = error }
        do throws(ES256KeyError) { try ES256KeyCheck.privateKey(pem: pem) } catch { check = error }
        return (libcrypto, check)
    }

    /// The same case, and for a key of another kind or curve the same words.
    func agree(_ pem: String, _ label: String) {
        let (libcrypto, check) = verdicts(pem)
        switch (libcrypto, check) {
        case (nil, nil): break
        case (.notPEMKey(let expected, _)?, .notPEMKey(let checked, _)?): #expect(expected == checked, "\(label)")
        case (.notP256Key(let found)?, .notP256Key(let checked)?): #expect(found == checked, "\(label)")
        default: Issue.record("\(label): libcrypto says \(String(describing: libcrypto)), the check \(String(describing: check))")
        }
    }

    @Test func theCheckJudgesEveryKindOfKeyAsLibcryptoDoes() throws {
        let p256 = try KeyFixtures.p256PrivateKey()
        agree(p256, "P-256 PKCS#8")
        agree(try KeyFixtures.shell("/usr/bin/openssl ecparam -name prime256v1 -genkey -noout"), "P-256 SEC1")
        agree("# Apple's key\n" + p256.replacingOccurrences(of: "\n", with: "\r\n"), "P-256 with CRLF and a comment")
        agree(try KeyFixtures.p384PrivateKey(), "P-384")
        agree(try KeyFixtures.shell("/usr/bin/openssl ecparam -name secp521r1 -genkey -noout"), "P-521 SEC1")
        agree(try KeyFixtures.rsaPrivateKey(), "RSA")
        agree(try KeyFixtures.shell("/usr/bin/openssl genpkey -algorithm ed25519"), "Ed25519")
        agree(
            try KeyFixtures.shell(
                "/usr/bin/openssl ecparam -name prime256v1 -genkey | /usr/bin/openssl pkcs8 -topk8 -v2 aes-256-cbc -passout pass:x"
            ),
            "encrypted")
        agree("not a key", "text")
        agree("", "empty")
        agree("-----BEGIN PRIVATE KEY-----\nnot base64!\n-----END PRIVATE KEY-----\n", "bad base64")
        agree("-----BEGIN PRIVATE KEY-----\nMAA=\n-----END PRIVATE KEY-----\n", "an empty sequence")
        agree(String(p256.dropLast(30)), "cut short")
        let folder = TemporaryDirectory("keycheck")
        let path = try folder.write("key.p8", p256)
        agree(try KeyFixtures.publicKey(ofPrivateKeyAt: path), "a public key")
        #expect(verdicts(p256) == (nil, nil))
        #expect(verdicts(try KeyFixtures.p384PrivateKey()).check == .notP256Key(found: "an EC key on secp384r1"))
    }

    /// A private number of 0 or of at least P-256's order is no key on it.
    @Test func aNumberOutsideTheGroupIsRefused() {
        func pkcs8(number: [UInt8]) -> String {
            let ecKey: [UInt8] = [0x30, UInt8(5 + number.count), 0x02, 0x01, 0x01, 0x04, UInt8(number.count)] + number
            let algorithm: [UInt8] =
                [0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01]
                + [0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07]
            let body: [UInt8] = [0x02, 0x01, 0x00] + algorithm + [0x04, UInt8(ecKey.count)] + ecKey
            let der: [UInt8] = [0x30, UInt8(body.count)] + body
            return "-----BEGIN PRIVATE KEY-----\n\(Data(der).base64EncodedString())\n-----END PRIVATE KEY-----\n"
        }
        let order: [UInt8] = [
            0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
            0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51,
        ]
        var below = order
        below[31] -= 1
        #expect(throws: Never.self) { try ES256KeyCheck.privateKey(pem: pkcs8(number: below)) }
        #expect(throws: Never.self) { try ES256KeyCheck.privateKey(pem: pkcs8(number: [7])) }
        for number in [order, [UInt8](repeating: 0, count: 32), [0x01] + order] {
            #expect(throws: ES256KeyError.self) { try ES256KeyCheck.privateKey(pem: pkcs8(number: number)) }
        }
    }

    /// SHA-256 is Swift (the token's cache key, the settings' fingerprint): FIPS 180-4's vectors,
    /// and openssl's digest at the lengths where the padding takes another block.
    @Test func sha256MatchesTheVectorsAndOpenSSL() throws {
        #expect(SHA256Digest.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            SHA256Digest.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256Digest.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        for length in [1, 55, 56, 63, 64, 65, 119, 120, 1000] {
            let openssl = try KeyFixtures.shell("head -c \(length) /dev/zero | tr '\\000' 'k' | /usr/bin/openssl dgst -sha256 -r")
            let bytes = [UInt8](repeating: UInt8(ascii: "k"), count: length)
            #expect(openssl.hasPrefix(SHA256Digest.hex(bytes) + " "), "\(length) bytes: openssl \(openssl)")
        }
    }

    @Test func aMissingLibcryptoIsOneLineNamingIt() {
        do throws(SharedLibraryError) {
            try OpenSSLLibrary.load("libliveactivity-missing.so.3")
            Issue.record("a library that does not exist loaded")
        } catch {
            guard case .notLoaded(let library, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(library == "libliveactivity-missing.so.3")
            #expect(error.description.hasPrefix("libliveactivity-missing.so.3 could not be loaded: "))
        }
        // Looked up in the global scope first (as `CurlLibraryTests` says): the test bundle's
        // Foundation networking may have put libcrypto there.
        let inTheGlobalScope = dlsym(nil, "BIO_ctrl_pending") != nil
        do throws(SharedLibraryError) {
            try OpenSSLLibrary.load("libc.so.6")
            #expect(inTheGlobalScope, "libc passed for libcrypto")
        } catch {
            #expect(!inTheGlobalScope)
            #expect(error == .missingSymbol(library: "libc.so.6", symbol: "BIO_ctrl_pending"))
        }
        #expect(OpenSSLLibrary.soname == "libcrypto.so.3")
    }
}
