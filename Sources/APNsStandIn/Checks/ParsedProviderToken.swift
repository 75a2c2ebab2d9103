import APNsJWT
import Foundation

/// A provider token taken apart, for the local APNs stand-in: the header and claims it names and
/// the bytes its signature covers. Parsing checks shape only; `isSigned(by:)` checks the signature.
public struct ParsedProviderToken: Sendable, Equatable {
    /// Header `alg`, expected `ES256`.
    public let algorithm: String?
    /// Header `kid`, the APNs key id.
    public let keyID: String?
    /// Claim `iss`, the team id.
    public let issuer: String?
    /// Claim `iat`, Unix seconds (nil when missing or not an integer).
    public let issuedAt: Int64?
    /// `base64url(header) "." base64url(claims)`, what the signature signs.
    public let signingInput: String
    /// The decoded signature bytes (64 for a well-formed ES256 token).
    public let signature: [UInt8]

    /// Why a token could not be taken apart.
    public enum ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        case notThreeParts
        case badBase64(part: String)
        case badJSON(part: String)

        public var description: String {
            switch self {
            case .notThreeParts: "the token does not have three dot-separated parts"
            case .badBase64(let part): "the token's \(part) is not base64url"
            case .badJSON(let part): "the token's \(part) is not a JSON object"
            }
        }
    }

    /// Parses a compact JWT; a leading `bearer ` (any case) is accepted and removed.
    public init(parsing text: String) throws(ParseError) {
        var token = Substring(text)
        if token.lowercased().hasPrefix("bearer ") { token = token.dropFirst(7) }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .notThreeParts }
        let header = try Self.object(parts[0], part: "header")
        let claims = try Self.object(parts[1], part: "claims")
        guard let signature = Base64URL.decode(parts[2]) else { throw .badBase64(part: "signature") }
        algorithm = header["alg"] as? String
        keyID = header["kid"] as? String
        issuer = claims["iss"] as? String
        issuedAt = Self.integer(claims["iat"])
        signingInput = parts[0] + "." + parts[1]
        self.signature = signature
    }

    /// Whether the signature verifies under `verifier`'s key.
    public func isSigned(by verifier: ES256Verifier) -> Bool {
        verifier.isValidSignature(signature, of: signingInput)
    }

    private static func object(_ part: Substring, part name: String) throws(ParseError) -> [String: Any] {
        guard let bytes = Base64URL.decode(part) else { throw .badBase64(part: name) }
        guard let value = try? JSONSerialization.jsonObject(with: Data(bytes)), let object = value as? [String: Any]
        else { throw .badJSON(part: name) }
        return object
    }

    /// An integral JSON number; strings and fractions are rejected (Apple's own sample sends a
    /// millisecond string, which APNs's real checks may treat differently: APNS.md section 4).
    private static func integer(_ value: Any?) -> Int64? {
        guard let number = value as? NSNumber, !(value is Bool) else { return nil }
        let double = number.doubleValue
        guard double == double.rounded(), abs(double) < 9e15 else { return nil }
        return number.int64Value
    }
}
