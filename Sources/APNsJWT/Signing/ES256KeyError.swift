import SystemSupport

/// Why an APNs signing or verifying key could not be loaded; each case reads as one line for operators.
public enum ES256KeyError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The key file could not be read.
    case unreadableFile(path: String, reason: String)
    /// The text is not a PEM key of the expected kind (private for signing, public for verifying).
    case notPEMKey(expected: String, detail: String)
    /// A PEM key, but not an EC key on P-256; `found` names what it is ("an RSA key", "an EC key on secp384r1").
    case notP256Key(found: String)
    /// libcrypto failed while handling an otherwise acceptable key.
    case openSSL(OpenSSLError)
    /// libcrypto could not be loaded, so no key can be.
    case library(SharedLibraryError)

    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason):
            "cannot read the APNs key file \(path): \(reason)"
        case .notPEMKey(let expected, let detail):
            "the APNs key is not a PEM \(expected) key" + (detail.isEmpty ? "" : " (\(detail))")
        case .notP256Key(let found):
            "the APNs key must be a P-256 (prime256v1) EC key for ES256, but it is \(found)"
        case .openSSL(let error):
            error.description
        case .library(let error):
            error.description
        }
    }
}
