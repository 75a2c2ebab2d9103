import APNsJWT
import APNsStandIn
import Foundation
import TestSupport
import Testing

@Suite struct ES256Tests {
    @Test func signsTo64BytesThatOurVerifierAcceptsAndATamperedCopyFails() throws {
        let signer = try ES256Signer(pem: KeyFixtures.p256PrivateKey())
        let verifier = try ES256Verifier(signer: signer)
        let message = Array("eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJ0ZWFtIn0".utf8)
        for _ in 0..<20 {
            let signature = try signer.sign(message)
            #expect(signature.count == 64)
            #expect(verifier.isValidSignature(signature, of: message))
            var tampered = signature
            tampered[Int.random(in: 0..<64)] ^= 0x01
            #expect(!verifier.isValidSignature(tampered, of: message))
            #expect(!verifier.isValidSignature(signature, of: message + [0x2e]))
            #expect(!verifier.isValidSignature(Array(signature.prefix(63)), of: message))
        }
    }

    @Test func verifiesWithThePublicKeyOpenSSLDerived() throws {
        let folder = TemporaryDirectory("es256")
        let keyPath = try folder.write("key.p8", KeyFixtures.p256PrivateKey())
        let signer = try ES256Signer(path: keyPath)
        let verifier = try ES256Verifier(publicKeyPEM: KeyFixtures.publicKey(ofPrivateKeyAt: keyPath))
        let signature = try signer.sign("hello")
        #expect(verifier.isValidSignature(signature, of: "hello"))
        let otherKey = try ES256Verifier(privateKeyPEM: KeyFixtures.p256PrivateKey())
        #expect(!otherKey.isValidSignature(signature, of: "hello"))
    }

    @Test func aMissingKeyFileIsUnreadable() {
        #expect(throws: ES256KeyError.unreadableFile(path: "/nonexistent/AuthKey.p8", reason: "no such file")) {
            try ES256Signer(path: "/nonexistent/AuthKey.p8")
        }
    }

    @Test func garbageIsNotAPEMKey() throws {
        for text in ["", "hello", "-----BEGIN PRIVATE KEY-----\nnot base64\n-----END PRIVATE KEY-----\n"] {
            let error = #expect(throws: ES256KeyError.self) { try ES256Signer(pem: text) }
            guard case .notPEMKey(let expected, _)? = error else {
                Issue.record("expected notPEMKey, got \(String(describing: error))")
                continue
            }
            #expect(expected == "private")
            #expect(error?.description.contains("not a PEM private key") == true)
        }
    }

    @Test func aPublicKeyIsNotASigningKey() throws {
        let folder = TemporaryDirectory("es256")
        let keyPath = try folder.write("key.p8", KeyFixtures.p256PrivateKey())
        let publicPEM = try KeyFixtures.publicKey(ofPrivateKeyAt: keyPath)
        let error = #expect(throws: ES256KeyError.self) { try ES256Signer(pem: publicPEM) }
        guard case .notPEMKey? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
    }

    @Test func anRSAKeyIsRejectedByName() throws {
        let rsa = try KeyFixtures.rsaPrivateKey()
        #expect(throws: ES256KeyError.notP256Key(found: "an RSA key")) { try ES256Signer(pem: rsa) }
    }

    @Test func aP384KeyIsRejectedByCurve() throws {
        let p384 = try KeyFixtures.p384PrivateKey()
        let error = #expect(throws: ES256KeyError.self) { try ES256Signer(pem: p384) }
        #expect(error == .notP256Key(found: "an EC key on secp384r1"))
        #expect(error?.description.contains("P-256") == true)
    }

    @Test func sha256MatchesTheFIPSVector() {
        #expect(
            SHA256Digest.hex(Array("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
