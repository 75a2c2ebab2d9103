import Foundation

/// A fresh P-256 key in Apple's .p8 form (PKCS#8 PEM), made with the openssl command line.
public struct TestKey: Sendable {
    public let privateKeyPath: String
    public let privateKeyPEM: String
    public let keyID: String
    public let teamID: String
    public let bundleID: String

    public init(
        in folder: TemporaryDirectory, name: String = "AuthKey", curve: String = "prime256v1",
        keyID: String = "KEY1234567", teamID: String = "TEAM123456", bundleID: String = "com.example.betterblue"
    ) throws {
        let path = folder.file("\(name).p8")
        let openssl = systemTool("openssl") ?? "/usr/bin/openssl"
        let generated = try runCommand(
            "/bin/sh",
            ["-c", "\(openssl) ecparam -name \(curve) -genkey -noout | \(openssl) pkcs8 -topk8 -nocrypt -out '\(path)'"])
        guard generated.status == 0 else { throw TestKeyError(message: generated.stderr) }
        privateKeyPath = path
        privateKeyPEM = try String(contentsOfFile: path, encoding: .utf8)
        self.keyID = keyID
        self.teamID = teamID
        self.bundleID = bundleID
    }
}

public struct TestKeyError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { "openssl failed: \(message)" }
}
