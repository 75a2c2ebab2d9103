import Foundation

extension PostgresCluster {
    /// A `postgresql://` URI naming `hosts` in order (several: libpq tries each in turn), their
    /// sockets percent-encoded as libpq's URIs want, with `options` as query parameters
    /// (`target_session_attrs=read-write` finds the primary among them).
    public static func uri(
        hosts: [PostgresCluster], database: String, user: String = superuser, password: String? = nil,
        options: [String: String] = [:]
    ) -> String {
        var userinfo = percentEncoded(user)
        if let password { userinfo += ":" + percentEncoded(password) }
        let hostList = hosts.map { "\(percentEncoded($0.socketDirectory)):\($0.port)" }.joined(separator: ",")
        var text = "postgresql://\(userinfo)@\(hostList)/\(percentEncoded(database))"
        if !options.isEmpty {
            text +=
                "?" + options.sorted { $0.key < $1.key }.map { "\($0.key)=\(percentEncoded($0.value))" }.joined(separator: "&")
        }
        return text
    }

    /// `uri(hosts:...)` with `target_session_attrs=read-write`: the primary among `hosts`,
    /// whichever it is now (a promoted standby after a failover).
    public static func readWriteURI(hosts: [PostgresCluster], database: String, user: String = superuser, password: String? = nil)
        -> String
    {
        uri(hosts: hosts, database: database, user: user, password: password, options: ["target_session_attrs": "read-write"])
    }

    /// RFC 3986's unreserved characters kept, every other byte as %XX.
    public static func percentEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            let character = Character(Unicode.Scalar(byte))
            if byte < 0x80, character.isLetter || character.isNumber || "-._~".contains(character) {
                encoded.append(character)
            } else {
                encoded += String(format: "%%%02X", byte)
            }
        }
        return encoded
    }
}
