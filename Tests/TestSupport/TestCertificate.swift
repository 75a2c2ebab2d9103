/// A self-signed TLS certificate for 127.0.0.1 and localhost, made by the openssl command line
/// in a test's own folder: what the local HTTP/2 + TLS endpoints serve and clients trust.
public struct TestCertificate: Sendable {
    public let certificatePath: String
    public let keyPath: String

    public init(in folder: TemporaryDirectory, name: String = "cert") throws {
        certificatePath = folder.file("\(name).pem")
        keyPath = folder.file("\(name)-key.pem")
        let made = try runCommand(
            systemTool("openssl") ?? "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", keyPath, "-out", certificatePath, "-days", "2",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
            ])
        guard made.status == 0 else { throw SocketError("openssl req failed: \(made.stderr)") }
    }
}
