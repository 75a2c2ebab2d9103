import Foundation

/// Keys made by the openssl command line (not by our code) in a test's own folder.
public enum KeyFixtures {
    /// Runs a shell pipeline and returns its stdout; a non-zero exit throws its stderr.
    public static func shell(_ script: String) throws -> String {
        let result = try runCommand("/bin/sh", ["-c", script])
        guard result.status == 0 else { throw TestKeyError(message: "\(script): \(result.stderr)") }
        return result.stdout
    }

    /// An Apple-style .p8: a P-256 key as unencrypted PKCS#8 PEM.
    public static func p256PrivateKey() throws -> String {
        try shell("/usr/bin/openssl ecparam -name prime256v1 -genkey | /usr/bin/openssl pkcs8 -topk8 -nocrypt")
    }

    public static func p384PrivateKey() throws -> String {
        try shell("/usr/bin/openssl ecparam -name secp384r1 -genkey | /usr/bin/openssl pkcs8 -topk8 -nocrypt")
    }

    public static func rsaPrivateKey() throws -> String {
        try shell("/usr/bin/openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 2>/dev/null")
    }

    /// The public half, derived by openssl from the private key file at `path`.
    public static func publicKey(ofPrivateKeyAt path: String) throws -> String {
        try shell("/usr/bin/openssl pkey -in '\(path)' -pubout")
    }
}
