import COpenSSL

/// An `EVP_MD_CTX` for one sign or verify operation, freed in `deinit`.
final class DigestContext {
    let pointer: OpaquePointer

    init() throws(OpenSSLError) {
        guard let context = EVP_MD_CTX_new() else { throw .drain("EVP_MD_CTX_new") }
        pointer = context
    }

    deinit { EVP_MD_CTX_free(pointer) }
}
