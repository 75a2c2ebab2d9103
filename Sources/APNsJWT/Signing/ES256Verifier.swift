import COpenSSL

/// Verifies raw r||s ES256 signatures with a P-256 public key; the local APNs stand-in checks
/// provider tokens with it. It lives beside the signer so libcrypto's handles stay inside this
/// target: a caller gives bytes and gets a yes or no.
public final class ES256Verifier {
    private let key: EVPKey

    /// Loads a public key from `-----BEGIN PUBLIC KEY-----` PEM text.
    public init(publicKeyPEM: String) throws(ES256KeyError) {
        key = try EVPKey(pem: publicKeyPEM, kind: .publicKey)
    }

    /// Uses the public half of a private key given as PEM text (an Apple .p8 key).
    public convenience init(privateKeyPEM: String) throws(ES256KeyError) {
        try self.init(signer: ES256Signer(pem: privateKeyPEM))
    }

    /// Uses the public half of `signer`'s key.
    public convenience init(signer: ES256Signer) throws(ES256KeyError) {
        let pem: String
        do { pem = try signer.publicKeyPEM() } catch { throw .openSSL(error) }
        try self.init(publicKeyPEM: pem)
    }

    /// Whether `signature` (64 bytes r||s) is a valid ES256 signature of `message`. Any malformed
    /// input is simply "not valid".
    public func isValidSignature(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        defer { OpenSSLError.drainQueue() }
        guard let der = try? ECDSASignature(raw: signature).der(), let context = try? DigestContext() else {
            return false
        }
        guard EVP_DigestVerifyInit(context.pointer, nil, EVP_sha256(), nil, key.pointer) == 1 else { return false }
        return EVP_DigestVerify(context.pointer, der, der.count, message, message.count) == 1
    }

    /// Verifies a signature over the UTF-8 bytes of `text`.
    public func isValidSignature(_ signature: [UInt8], of text: String) -> Bool {
        isValidSignature(signature, of: Array(text.utf8))
    }
}
