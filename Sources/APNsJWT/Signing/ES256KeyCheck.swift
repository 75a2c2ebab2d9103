/// What can be told of an APNs key without libcrypto: whether its PEM text holds an EC private
/// key on P-256, as Apple's .p8 does (PKCS#8, or SEC1's `EC PRIVATE KEY`), read from its DER
/// structure. The sweep checks every app's key so at each run, before anything else, and loads
/// libcrypto only to sign with it (`ES256Signer`, which checks it again): an idle cron run
/// still refuses a key that is not one, with the same one line, and maps no libcrypto.
public enum ES256KeyCheck {
    /// Throws the error `ES256Signer(pem:)` would for a key that is not a PEM private key, or not
    /// one on P-256.
    public static func privateKey(pem: String) throws(ES256KeyError) {
        guard let block = PEMBlock(pem) else {
            throw .notPEMKey(expected: "private", detail: "no -----BEGIN ... PRIVATE KEY----- block")
        }
        switch block.label {
        case "PRIVATE KEY": try pkcs8(block.der)
        case "EC PRIVATE KEY": try ecPrivateKey(block.der, curve: nil)
        case "RSA PRIVATE KEY": throw .notP256Key(found: "an RSA key")
        case "DSA PRIVATE KEY": throw .notP256Key(found: "a DSA key")
        case "ENCRYPTED PRIVATE KEY":
            throw .notPEMKey(expected: "private", detail: "the key is encrypted; an APNs .p8 key is not")
        default: throw .notPEMKey(expected: "private", detail: "a PEM block of \(block.label.prefix(40))")
        }
    }

    /// PKCS#8 `PrivateKeyInfo` (RFC 5208): version, algorithm (and its parameters), the key.
    private static func pkcs8(_ der: [UInt8]) throws(ES256KeyError) {
        var outer = DERReader(der)
        guard var info = outer.read(tag: 0x30)?.contents, info.read(tag: 0x02) != nil,
            var algorithm = info.read(tag: 0x30)?.contents, let oid = algorithm.read(tag: 0x06)?.bytes,
            let key = info.read(tag: 0x04)?.bytes
        else { throw malformed("not a PKCS#8 private key") }
        switch oid {
        case ObjectID.ecPublicKey:
            try ecPrivateKey(key, curve: algorithm.read(tag: 0x06)?.bytes)
        case ObjectID.rsaEncryption, ObjectID.rsassaPSS: throw .notP256Key(found: "an RSA key")
        case ObjectID.ed25519: throw .notP256Key(found: "an Ed25519 key")
        case ObjectID.dsa: throw .notP256Key(found: "a DSA key")
        default: throw .notP256Key(found: "a key of type \(ObjectID.name(oid))")
        }
    }

    /// SEC1 `ECPrivateKey` (RFC 5915): version 1, the private number, the curve (here or in the
    /// PKCS#8 algorithm's parameters: `curve`), the public key.
    private static func ecPrivateKey(_ der: [UInt8], curve outerCurve: [UInt8]?) throws(ES256KeyError) {
        var outer = DERReader(der)
        guard var key = outer.read(tag: 0x30)?.contents, key.read(tag: 0x02)?.bytes == [1],
            let number = key.read(tag: 0x04)?.bytes
        else { throw malformed("not an EC private key") }
        let innerCurve = key.read(tag: 0xa0).flatMap { parameters -> [UInt8]? in
            var parameters = parameters.contents
            return parameters.read(tag: 0x06)?.bytes
        }
        guard let curve = outerCurve ?? innerCurve else { throw .notP256Key(found: "an EC key without a named curve") }
        guard curve == ObjectID.prime256v1 else { throw .notP256Key(found: "an EC key on \(ObjectID.name(curve))") }
        // A number from 1 to the group's order less one, in at most 32 bytes.
        let significant = Array(number.drop { $0 == 0 })
        guard !significant.isEmpty,
            significant.count < 32 || (significant.count == 32 && significant.lexicographicallyPrecedes(p256Order))
        else {
            throw malformed("its private number is not one of P-256")
        }
    }

    private static func malformed(_ detail: String) -> ES256KeyError { .notPEMKey(expected: "private", detail: detail) }

    /// n of P-256 (SEC 2 section 2.4.2), big-endian.
    private static let p256Order: [UInt8] = [
        0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51,
    ]
}

/// The object identifiers a key's algorithm and curve are named by (their DER contents).
enum ObjectID {
    static let ecPublicKey: [UInt8] = [0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01]  // 1.2.840.10045.2.1
    static let prime256v1: [UInt8] = [0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07]  // 1.2.840.10045.3.1.7
    static let rsaEncryption: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01]
    static let rsassaPSS: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0a]
    static let dsa: [UInt8] = [0x2a, 0x86, 0x48, 0xce, 0x38, 0x04, 0x01]  // 1.2.840.10040.4.1
    static let ed25519: [UInt8] = [0x2b, 0x65, 0x70]  // 1.3.101.112

    /// OpenSSL's short name of the curves and key types a wrong key most likely is, else the dotted form.
    static func name(_ oid: [UInt8]) -> String {
        switch oid {
        case [0x2b, 0x81, 0x04, 0x00, 0x22]: "secp384r1"
        case [0x2b, 0x81, 0x04, 0x00, 0x23]: "secp521r1"
        case [0x2b, 0x81, 0x04, 0x00, 0x0a]: "secp256k1"
        case [0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x01]: "prime192v1"
        case [0x2b, 0x81, 0x04, 0x00, 0x21]: "secp224r1"
        case [0x2b, 0x65, 0x6e]: "X25519"
        case [0x2b, 0x65, 0x6f]: "X448"
        case [0x2b, 0x65, 0x71]: "ED448"
        default: dotted(oid)
        }
    }

    /// 1.2.840.10045.3.1.7 and the like (X.690 section 8.19).
    static func dotted(_ oid: [UInt8]) -> String {
        guard let first = oid.first else { return "an empty identifier" }
        var arcs = [first < 80 ? UInt64(first / 40) : 2, first < 80 ? UInt64(first % 40) : UInt64(first) - 80]
        var value: UInt64 = 0
        for byte in oid.dropFirst() {
            guard value < 1 << 56 else { return "an identifier too long to show" }
            value = value << 7 | UInt64(byte & 0x7f)
            if byte & 0x80 == 0 {
                arcs.append(value)
                value = 0
            }
        }
        return arcs.map(String.init).joined(separator: ".")
    }
}

/// The first PEM block of a text whose label ends in PRIVATE KEY (RFC 7468): its label and its
/// base64 body decoded.
struct PEMBlock {
    let label: String
    let der: [UInt8]

    init?(_ text: String) {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }
        guard
            let begin = lines.firstIndex(where: { $0.hasPrefix("-----BEGIN ") && $0.hasSuffix("PRIVATE KEY-----") })
        else { return nil }
        let label = String(lines[begin].dropFirst("-----BEGIN ".count).dropLast("-----".count))
        guard let end = lines[(begin + 1)...].firstIndex(of: "-----END \(label)-----"),
            let der = Base64.decode(lines[(begin + 1)..<end].joined())
        else { return nil }
        self.label = label
        self.der = der
    }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

/// Reads DER's tag-length-value items (X.690) one after another, definite lengths only.
struct DERReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    struct Item {
        let bytes: [UInt8]
        var contents: DERReader { DERReader(bytes) }
    }

    /// The next item's contents when its tag is `tag` (and then moves past it), else nil.
    mutating func read(tag: UInt8) -> Item? {
        guard offset + 2 <= bytes.count, bytes[offset] == tag else { return nil }
        var at = offset + 1
        var length = Int(bytes[at])
        at += 1
        if length & 0x80 != 0 {
            let count = length & 0x7f
            guard (1...4).contains(count), at + count <= bytes.count else { return nil }
            length = bytes[at..<(at + count)].reduce(0) { $0 << 8 | Int($1) }
            at += count
        }
        guard length <= bytes.count - at else { return nil }
        offset = at + length
        return Item(bytes: Array(bytes[at..<(at + length)]))
    }
}
