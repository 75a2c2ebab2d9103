import APNsJWT
import APNsStandIn
import Foundation
import LiveActivityDomain
import TestSupport
import Testing

@Suite struct ProviderTokenTests {
    @Test func python3JWTDecodesAndVerifiesOurToken() throws {
        let python = "/usr/bin/python3"
        try #require(FileManager.default.isExecutableFile(atPath: python))
        let folder = TemporaryDirectory("jwt")
        let keyPath = try folder.write("AuthKey.p8", KeyFixtures.p256PrivateKey())
        let publicPath = try folder.write("public.pem", KeyFixtures.publicKey(ofPrivateKeyAt: keyPath))
        let now = Int64(Date().timeIntervalSince1970)
        let token = try ProviderToken(
            keyID: "ABC123DEFG", teamID: "DEF123GHIJ", issuedAt: now, signer: ES256Signer(path: keyPath))
        let script = """
            import json, sys, jwt
            token = sys.stdin.read().strip()
            key = open(sys.argv[1]).read()
            claims = jwt.decode(token, key, algorithms=["ES256"])
            print(json.dumps({"header": jwt.get_unverified_header(token), "claims": claims}))
            """
        let result = try runCommand(python, ["-c", script, publicPath], input: Array(token.jwt.utf8))
        try #require(result.status == 0, "python3-jwt rejected the token: \(result.stderr)")
        let decoded = try #require(
            JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: [String: Any]])
        #expect(decoded["header"]?["alg"] as? String == "ES256")
        #expect(decoded["header"]?["kid"] as? String == "ABC123DEFG")
        #expect(decoded["claims"]?["iss"] as? String == "DEF123GHIJ")
        #expect((decoded["claims"]?["iat"] as? NSNumber)?.int64Value == now)
        #expect(token.authorization == "bearer " + token.jwt)
    }

    @Test func parserReturnsTheFieldsAndOurVerifierChecksTheSignature() throws {
        let signer = try ES256Signer(pem: KeyFixtures.p256PrivateKey())
        let token = try ProviderToken(keyID: "KEY1234567", teamID: "TEAM123456", issuedAt: 1_700_000_000, signer: signer)
        let parsed = try ParsedProviderToken(parsing: token.authorization)
        #expect(parsed.algorithm == "ES256")
        #expect(parsed.keyID == "KEY1234567")
        #expect(parsed.issuer == "TEAM123456")
        #expect(parsed.issuedAt == 1_700_000_000)
        #expect(parsed.signature.count == 64)
        #expect(parsed.signingInput == token.jwt.split(separator: ".").prefix(2).joined(separator: "."))
        #expect(parsed.isSigned(by: try ES256Verifier(signer: signer)))
        #expect(!parsed.isSigned(by: try ES256Verifier(privateKeyPEM: KeyFixtures.p256PrivateKey())))

        // A token whose claims were swapped no longer verifies.
        var parts = token.jwt.split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode("{\"iss\":\"TEAM123456\",\"iat\":1700000001}")
        let forged = try ParsedProviderToken(parsing: parts.joined(separator: "."))
        #expect(forged.issuedAt == 1_700_000_001)
        #expect(!forged.isSigned(by: try ES256Verifier(signer: signer)))
    }

    @Test func parserRejectsMalformedTokens() {
        #expect(throws: ParsedProviderToken.ParseError.notThreeParts) { try ParsedProviderToken(parsing: "a.b") }
        #expect(throws: ParsedProviderToken.ParseError.badBase64(part: "header")) {
            try ParsedProviderToken(parsing: "a+b.e30.AA")
        }
        #expect(throws: ParsedProviderToken.ParseError.badJSON(part: "claims")) {
            try ParsedProviderToken(parsing: "e30.bm90IGpzb24.AA")
        }
    }

    @Test func cacheKeyChangesWithEachSetting() {
        let base = ProviderToken.cacheKey(keyID: "K", teamID: "T", keyPEM: "PEM")
        #expect(base.count == 64)
        #expect(base == ProviderToken.cacheKey(keyID: "K", teamID: "T", keyPEM: "PEM"))
        #expect(base != ProviderToken.cacheKey(keyID: "K2", teamID: "T", keyPEM: "PEM"))
        #expect(base != ProviderToken.cacheKey(keyID: "K", teamID: "T2", keyPEM: "PEM"))
        #expect(base != ProviderToken.cacheKey(keyID: "K", teamID: "T", keyPEM: "PEM2"))
        #expect(
            ProviderToken.cacheKey(keyID: "KT", teamID: "", keyPEM: "P")
                != ProviderToken.cacheKey(keyID: "K", teamID: "T", keyPEM: "P"))
    }
}
