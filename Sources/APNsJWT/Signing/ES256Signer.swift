import COpenSSL

/// Signs with an APNs .p8 key (PKCS#8 PEM, EC on P-256) using ES256: ECDSA over SHA-256,
/// returning the raw r||s form JWTs use (RFC 7518 section 3.4), not OpenSSL's DER.
///
/// Not Sendable: one owner of the underlying `EVP_PKEY`, used from one thread.
public final class ES256Signer {
    private let key: EVPKey

    /// Loads the private key from PEM text (`-----BEGIN PRIVATE KEY-----`, as Apple ships it).
    public init(pem: String) throws(ES256KeyError) {
        key = try EVPKey(pem: pem, kind: .privateKey)
    }

    /// Loads the private key from a .p8 file.
    public convenience init(path: String) throws(ES256KeyError) {
        let pem: String
        do { pem = try APNsKeyFile.read(path) } catch { throw .unreadableFile(path: path, reason: error.description) }
        try self.init(pem: pem)
    }

    /// The 64-byte r||s ES256 signature of `message`.
    public func sign(_ message: [UInt8]) throws(OpenSSLError) -> [UInt8] {
        OpenSSLError.drainQueue()
        let context = try DigestContext()
        guard EVP_DigestSignInit(context.pointer, nil, EVP_sha256(), nil, key.pointer) == 1 else {
            throw .drain("EVP_DigestSignInit")
        }
        // First call sizes the DER output, second call signs (OpenSSL 3 EVP_DigestSign(3)).
        var length = 0
        guard EVP_DigestSign(context.pointer, nil, &length, message, message.count) == 1 else {
            throw .drain("EVP_DigestSign")
        }
        var der = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context.pointer, &der, &length, message, message.count) == 1 else {
            throw .drain("EVP_DigestSign")
        }
        return try ECDSASignature(der: Array(der.prefix(length))).raw()
    }

    /// Signs the UTF-8 bytes of `text`.
    public func sign(_ text: String) throws(OpenSSLError) -> [UInt8] { try sign(Array(text.utf8)) }

    /// The public half as PEM text, for a verifier (the local APNs stand-in).
    public func publicKeyPEM() throws(OpenSSLError) -> String { try key.publicKeyPEM() }
}
