import APNsJWT
import FastCGIWire
import Foundation
import LiveActivityDomain

/// Answers a push the way APNs does (APNS.md sections 2-5): checks the provider token's signature,
/// key id, team and age, the refresh rate, the headers and the payload; then answers a scripted
/// outcome for the token if a test queued one, else 200. Every push is recorded.
///
/// One per worker thread: it owns its database connection.
public final class StandInResponder {
    public static let maximumPayloadSize = 4096

    private let configuration: StandInConfiguration
    /// Each team's keys that sign its apps' tokens, by team and key id.
    private let verifiers: [KeyName: ES256Verifier]
    private let state: StandInState
    private let gate: WriteGate
    private let log: (String) -> Void
    /// The bindings this worker has read (a connection's never changes while the stand-in runs),
    /// so only a connection's first push here costs a write.
    private var knownBindings: [String: KeyName] = [:]

    public init(configuration: StandInConfiguration, gate: WriteGate, log: @escaping (String) -> Void) throws {
        self.configuration = configuration
        var verifiers: [KeyName: ES256Verifier] = [:]
        for app in configuration.apps where verifiers[KeyName(teamID: app.teamID, keyID: app.keyID)] == nil {
            verifiers[KeyName(teamID: app.teamID, keyID: app.keyID)] = try ES256Verifier(publicKeyPEM: app.publicKeyPEM)
        }
        self.verifiers = verifiers
        self.state = try gate.withLock { try StandInState(path: configuration.databasePath) }
        self.gate = gate
        self.log = log
    }

    /// A signing key: a team's key id.
    struct KeyName: Hashable {
        var teamID: String
        var keyID: String
    }

    /// An APNs rejection: status and reason.
    struct Rejection: Error {
        var status: Int
        var reason: String
        var timestamp: Int64? = nil
    }

    public func respond(to request: StandInRequest) -> HTTPResponse {
        let now = configuration.clock.now()
        let apnsID = request.headers["apns-id"].flatMap { Self.isCanonicalUUID($0) ? $0 : nil } ?? Self.newUUID()
        var status = 200
        var reason: String?
        var timestamp: Int64?
        var deviceToken = ""
        var delay = 0
        do {
            let signer: KeyName
            (deviceToken, signer) = try check(request, now: now)
            if let scripted = try gate.withLock({ try state.takeScripted(token: deviceToken, environment: request.environment) })
            {
                status = scripted.status
                reason = scripted.reason
                delay = scripted.delayMilliseconds
                if status == 410 { timestamp = scripted.timestamp ?? now }
                if reason == "ExpiredProviderToken" { try gate.withLock { try state.allowRenewal(keyID: signer.keyID) } }
            }
        } catch let rejection as Rejection {
            status = rejection.status
            reason = rejection.reason
        } catch {
            log("stand-in fault: \(error)")
            status = 500
            reason = "InternalServerError"
        }
        if deviceToken.isEmpty { deviceToken = String(request.path.split(separator: "/").last ?? "") }
        let received = StandInState.Received(
            deviceToken: deviceToken, method: request.method, serverProtocol: request.serverProtocol,
            authorization: request.headers["authorization"], topic: request.headers["apns-topic"],
            pushType: request.headers["apns-push-type"], priority: request.headers["apns-priority"],
            expiration: request.headers["apns-expiration"], apnsID: apnsID,
            payload: String(decoding: request.body.prefix(8192), as: UTF8.self), status: status, reason: reason,
            receivedAt: now, environment: request.environment)
        do {
            try gate.withLock {
                try state.record(received, connection: request.connection, contentType: request.headers["content-type"])
            }
        } catch {
            log("stand-in cannot record a push: \(error)")
        }
        log(
            "push to \(deviceToken.prefix(8))… (\(request.environment.rawValue)) \(status)\(reason.map { " " + $0 } ?? "") (\(request.headers["apns-push-type"] ?? "-"), priority \(request.headers["apns-priority"] ?? "-"))"
        )
        if delay > 0 { usleep(useconds_t(min(delay, 120_000)) * 1000) }

        var headers: [(name: String, value: String)] = [("apns-id", apnsID)]
        guard status != 200 else { return HTTPResponse(status: 200, headers: headers) }
        headers.append(("Content-Type", "application/json"))
        var body = "{\"reason\":\"\(reason ?? "Unknown")\""
        if let timestamp { body += ",\"timestamp\":\(timestamp)" }
        body += "}"
        return HTTPResponse(status: status, headers: headers, body: Array(body.utf8))
    }

    // MARK: - The checks, in the order APNs reports them

    /// Validates `request`; returns the device token from the path and the key that signed.
    private func check(_ request: StandInRequest, now: Int64) throws -> (token: String, signer: KeyName) {
        guard request.method == "POST" else { throw Rejection(status: 405, reason: "MethodNotAllowed") }
        let prefix = "/3/device/"
        guard request.path.hasPrefix(prefix) else { throw Rejection(status: 404, reason: "BadPath") }
        let token = String(request.path.dropFirst(prefix.count))
        guard !token.isEmpty else { throw Rejection(status: 400, reason: "MissingDeviceToken") }
        guard token.count % 2 == 0, token.count >= 64, token.count <= 200,
            token.allSatisfy({ $0.isHexDigit && !$0.isUppercase })
        else { throw Rejection(status: 400, reason: "BadDeviceToken") }

        let signer = try checkProviderToken(request.headers["authorization"], now: now)
        // One team and key per connection, bound at its first push (APNS.md section 8).
        if let connection = request.connection {
            let bound =
                try knownBindings[connection]
                ?? gate.withLock {
                    let stored = try state.binding(connection: connection, teamID: signer.teamID, keyID: signer.keyID)
                    return KeyName(teamID: stored.teamID, keyID: stored.keyID)
                }
            knownBindings[connection] = bound
            if bound.teamID != signer.teamID { throw Rejection(status: 403, reason: "InvalidProviderToken") }
            if bound.keyID != signer.keyID { throw Rejection(status: 403, reason: "UnrelatedKeyIdInToken") }
        }
        // A key restricted to one environment, used against the other host (APNS.md section 5).
        let teamApps = configuration.apps.filter { $0.teamID == signer.teamID }
        guard teamApps.contains(where: { $0.keyID == signer.keyID && $0.keyEnvironments.contains(request.environment) })
        else { throw Rejection(status: 403, reason: "BadEnvironmentKeyInToken") }

        guard let topic = request.headers["apns-topic"], !topic.isEmpty else {
            throw Rejection(status: 400, reason: "MissingTopic")
        }
        // The topics of the team's apps: each bundle id, and each push type's suffix of it (APNS.md
        // section 8); a key signs for every app of its team.
        let topicSuffix = teamApps.lazy.compactMap { app in ApplePushType.topicSuffixes.first { app.bundleID + $0 == topic } }
            .first
        guard let topicSuffix else { throw Rejection(status: 400, reason: "TopicDisallowed") }
        let pushType = request.headers["apns-push-type"]
        if let pushType, !ApplePushType.known.contains(pushType) { throw Rejection(status: 400, reason: "InvalidPushType") }
        // A push to a type's own topic (`.push-type.widgets`) of another type, or a push of such a
        // type to another topic (a widgets push to the plain bundle id): the token is not one for
        // that topic, as APNs answers it.
        let documented = ApplePushType.named(pushType)
        if topicSuffix != (documented?.topicSuffix ?? "") { throw Rejection(status: 400, reason: "DeviceTokenNotForTopic") }
        if let priority = request.headers["apns-priority"] {
            guard ApplePushType.anyPriority.contains(priority),
                documented.map({ $0.priorities.contains(priority) }) ?? true
            else { throw Rejection(status: 400, reason: "BadPriority") }
        }
        if let expiration = request.headers["apns-expiration"], Int64(expiration) == nil {
            throw Rejection(status: 400, reason: "BadExpirationDate")
        }
        if let id = request.headers["apns-id"], !Self.isCanonicalUUID(id) {
            throw Rejection(status: 400, reason: "BadMessageId")
        }
        if let collapse = request.headers["apns-collapse-id"], collapse.utf8.count > 64 {
            throw Rejection(status: 400, reason: "BadCollapseId")
        }
        try checkPayload(request.body, documented: documented)
        return (token, signer)
    }

    /// Checks the token's signature by a key of a team the stand-in serves, its age and the
    /// refresh rule; returns the key that signed.
    private func checkProviderToken(_ header: String?, now: Int64) throws -> KeyName {
        guard let header, !header.isEmpty else { throw Rejection(status: 403, reason: "MissingProviderToken") }
        guard header.lowercased().hasPrefix("bearer "),
            let parsed = try? ParsedProviderToken(parsing: header),
            parsed.algorithm == "ES256", let keyID = parsed.keyID, let teamID = parsed.issuer,
            let verifier = verifiers[KeyName(teamID: teamID, keyID: keyID)],
            let issuedAt = parsed.issuedAt, parsed.isSigned(by: verifier)
        else { throw Rejection(status: 403, reason: "InvalidProviderToken") }
        let issuedAtMilliseconds = issuedAt * 1000
        if now - issuedAtMilliseconds > 3_600_000 { throw Rejection(status: 403, reason: "ExpiredProviderToken") }
        if issuedAtMilliseconds - now > 300_000 { throw Rejection(status: 403, reason: "InvalidProviderToken") }
        guard try gate.withLock({ try state.acceptTokenChange(keyID: keyID, issuedAt: issuedAt, now: now) })
        else { throw Rejection(status: 429, reason: "TooManyProviderTokenUpdates") }
        return KeyName(teamID: teamID, keyID: keyID)
    }

    private func checkPayload(_ body: [UInt8], documented: ApplePushType?) throws {
        guard !body.isEmpty else { throw Rejection(status: 400, reason: "PayloadEmpty") }
        guard body.count <= Self.maximumPayloadSize else { throw Rejection(status: 413, reason: "PayloadTooLarge") }
        // APNs documents no reason for a payload that is not a JSON object with an `aps`
        // dictionary; the stand-in is stricter than Apple here and says BadPayload.
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any],
            let aps = object["aps"] as? [String: Any]
        else { throw Rejection(status: 400, reason: "BadPayload") }
        // Each type's `aps` is its own and nothing more: a background push carries only
        // content-available (no alert, badge or sound), a widgets push only content-changed
        // (APNS.md sections 3 and 8).
        if let documented,
            let expectedAPS = (try? JSONSerialization.jsonObject(with: Data(documented.aps.utf8))) as? [String: Any]
        {
            // Compared as JSON written with sorted keys (Foundation on Linux tells a JSON `true`
            // from another `true` when comparing dictionaries).
            let written = { (object: [String: Any]) in try? JSONSerialization.data(withJSONObject: object, options: .sortedKeys) }
            guard let got = written(aps), got == written(expectedAPS) else { throw Rejection(status: 400, reason: "BadPayload") }
        }
    }

    // MARK: - apns-id

    static func isCanonicalUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12]
            && groups.allSatisfy { $0.allSatisfy { $0.isHexDigit && !$0.isUppercase } }
    }

    static func newUUID() -> String { UUID().uuidString.lowercased() }
}
