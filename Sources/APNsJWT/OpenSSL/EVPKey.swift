import COpenSSL

/// An `EVP_PKEY` known to be an EC key on P-256, freed in `deinit`.
final class EVPKey {
    let pointer: OpaquePointer

    /// Which half of the key pair a PEM text must hold.
    enum Kind {
        case privateKey
        case publicKey
    }

    /// Parses `pem` and checks that it is a P-256 EC key.
    init(pem: String, kind: Kind) throws(ES256KeyError) {
        do { try OpenSSLLibrary.load() } catch { throw .library(error) }
        OpenSSLError.drainQueue()
        let bio: MemoryBIO
        do { bio = try MemoryBIO(reading: pem) } catch { throw .openSSL(error) }
        let parsed: OpaquePointer?
        switch kind {
        case .privateKey:
            // A callback that supplies no passphrase: without it OpenSSL would prompt on the
            // terminal for an encrypted key. Apple's .p8 files are unencrypted PKCS#8.
            parsed = PEM_read_bio_PrivateKey(bio.pointer, nil, { _, _, _, _ in 0 }, nil)
        case .publicKey:
            parsed = PEM_read_bio_PUBKEY(bio.pointer, nil, { _, _, _, _ in 0 }, nil)
        }
        guard let parsed else {
            let detail = OpenSSLError.drainQueue()
            throw .notPEMKey(expected: kind == .privateKey ? "private" : "public", detail: detail)
        }
        pointer = parsed
        try checkP256()
    }

    deinit { EVP_PKEY_free(pointer) }

    private func checkP256() throws(ES256KeyError) {
        let baseID = EVP_PKEY_get_base_id(pointer)
        guard baseID == EVP_PKEY_EC else {
            let name: String
            switch baseID {
            case EVP_PKEY_RSA, EVP_PKEY_RSA_PSS: name = "an RSA key"
            case EVP_PKEY_ED25519: name = "an Ed25519 key"
            case EVP_PKEY_DSA: name = "a DSA key"
            default: name = "a key of type \(String(cString: OBJ_nid2sn(baseID)))"
            }
            throw .notP256Key(found: name)
        }
        var buffer = [CChar](repeating: 0, count: 80)
        var length = 0
        guard EVP_PKEY_get_group_name(pointer, &buffer, buffer.count, &length) == 1 else {
            throw .openSSL(.drain("EVP_PKEY_get_group_name"))
        }
        let group = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard group == "prime256v1" || group == "P-256" else {
            throw .notP256Key(found: "an EC key on \(group)")
        }
    }

    /// The public half as `-----BEGIN PUBLIC KEY-----` PEM text.
    func publicKeyPEM() throws(OpenSSLError) -> String {
        let bio = try MemoryBIO()
        guard PEM_write_bio_PUBKEY(bio.pointer, pointer) == 1 else { throw .drain("PEM_write_bio_PUBKEY") }
        return bio.contents()
    }
}
