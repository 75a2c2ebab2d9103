import COpenSSL

/// An OpenSSL memory BIO: PEM text in (read-only copy) or out (growable). Freed in `deinit`.
final class MemoryBIO {
    let pointer: OpaquePointer

    /// A BIO reading a private copy of `text`.
    init(reading text: String) throws(OpenSSLError) {
        let bytes = Array(text.utf8)
        // BIO_new_mem_buf does not copy; writing into a fresh memory BIO does.
        guard let bio = BIO_new(BIO_s_mem()) else { throw .drain("BIO_new") }
        pointer = bio
        guard bytes.isEmpty || BIO_write(bio, bytes, Int32(bytes.count)) == Int32(bytes.count) else {
            throw .drain("BIO_write")
        }
    }

    /// An empty BIO to write into.
    init() throws(OpenSSLError) {
        guard let bio = BIO_new(BIO_s_mem()) else { throw .drain("BIO_new") }
        pointer = bio
    }

    deinit { BIO_free(pointer) }

    /// Everything written so far, as text.
    func contents() -> String {
        let pending = Int(BIO_ctrl_pending(pointer))
        var buffer = [UInt8](repeating: 0, count: pending)
        let read = pending == 0 ? 0 : BIO_read(pointer, &buffer, Int32(pending))
        return String(decoding: buffer.prefix(max(0, Int(read))), as: UTF8.self)
    }
}
