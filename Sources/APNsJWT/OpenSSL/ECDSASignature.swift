import COpenSSL

/// An `ECDSA_SIG` (the pair r, s), converting between OpenSSL's DER encoding and JOSE's
/// fixed-width r||s (RFC 7518 section 3.4), which is what an APNs JWT carries.
final class ECDSASignature {
    let pointer: OpaquePointer

    /// Bytes per half for P-256.
    static let halfLength = 32

    /// Parses a DER `ECDSA-Sig-Value` as `EVP_DigestSign` produces it.
    init(der: [UInt8]) throws(OpenSSLError) {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let parsed else { throw .drain("d2i_ECDSA_SIG") }
        pointer = parsed
    }

    /// Builds the pair from raw r||s (64 bytes for P-256).
    init(raw: [UInt8]) throws(OpenSSLError) {
        let half = Self.halfLength
        guard raw.count == 2 * half else {
            throw OpenSSLError(operation: "ECDSA_SIG_set0", message: "a raw ES256 signature is 64 bytes, not \(raw.count)")
        }
        guard let signature = ECDSA_SIG_new() else { throw .drain("ECDSA_SIG_new") }
        pointer = signature
        let r = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32(half), nil) }
        let s = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + half, Int32(half), nil) }
        // ECDSA_SIG_set0 takes ownership of both numbers on success only.
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            throw .drain("ECDSA_SIG_set0")
        }
    }

    deinit { ECDSA_SIG_free(pointer) }

    /// r and s, each left-padded with zeros to 32 bytes, concatenated.
    func raw() throws(OpenSSLError) -> [UInt8] {
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(pointer, &r, &s)
        var out = [UInt8](repeating: 0, count: 2 * Self.halfLength)
        let written = out.withUnsafeMutableBufferPointer { buffer in
            (
                BN_bn2binpad(r, buffer.baseAddress, Int32(Self.halfLength)),
                BN_bn2binpad(s, buffer.baseAddress! + Self.halfLength, Int32(Self.halfLength))
            )
        }
        guard written.0 == Int32(Self.halfLength), written.1 == Int32(Self.halfLength) else {
            throw .drain("BN_bn2binpad")
        }
        return out
    }

    /// The DER encoding `EVP_DigestVerify` expects.
    func der() throws(OpenSSLError) -> [UInt8] {
        let length = i2d_ECDSA_SIG(pointer, nil)
        guard length > 0 else { throw .drain("i2d_ECDSA_SIG") }
        var out = [UInt8](repeating: 0, count: Int(length))
        let written = out.withUnsafeMutableBufferPointer { buffer in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_ECDSA_SIG(pointer, &cursor)
        }
        guard written == length else { throw .drain("i2d_ECDSA_SIG") }
        return out
    }
}
