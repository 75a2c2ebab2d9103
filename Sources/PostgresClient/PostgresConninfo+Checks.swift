extension PostgresConninfo {
    /// What libpq accepts in `target_session_attrs` (PostgreSQL 14 and later).
    static let sessionAttributes: Set<String> = ["any", "read-write", "read-only", "primary", "standby", "prefer-standby"]

    /// Checks what libpq would only find wrong at connect time, naming the option.
    func check() throws(PostgresError) {
        let names = list("host").count
        let addresses = list("hostaddr").count
        if names > 0, addresses > 0, names != addresses {
            throw Self.invalid("\(names) hosts and \(addresses) hostaddr values: give one hostaddr per host")
        }
        let hosts = max(names, addresses)
        let ports = list("port")
        if ports.count > 1, ports.count != hosts {
            throw Self.invalid("\(ports.count) ports for \(hosts) hosts: give one port for all or one per host")
        }
        for port in ports where !port.isEmpty && UInt16(port) == nil {
            throw Self.invalid("the port must be a number from 1 to 65535")
        }
        if let attributes = value("target_session_attrs"), !Self.sessionAttributes.contains(attributes) {
            throw Self.invalid(
                "target_session_attrs must be one of \(Self.sessionAttributes.sorted().joined(separator: ", "))")
        }
        if let timeout = value("connect_timeout"), Int(timeout) == nil {
            throw Self.invalid("connect_timeout must be a whole number of seconds")
        }
    }

    /// The comma-separated entries of a list option (`host`, `hostaddr`, `port`); [] when unset.
    package func list(_ keyword: String) -> [String] {
        value(keyword).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) } ?? []
    }

    /// The connection attempts to make in turn, each one host's options, so that a host which
    /// never answers costs one host's time and the next is tried (libpq's own asynchronous
    /// connect cannot be told to give up on one host and go on). One attempt with every option
    /// when the string names one host or none. `prefer-standby` becomes libpq's two passes:
    /// every host as a standby, then every host as any server.
    func hostAttempts() -> [[Option]] {
        let hosts = list("host")
        let addresses = list("hostaddr")
        let ports = list("port")
        let count = max(hosts.count, addresses.count)
        guard count > 1 else { return [options] }
        let attributes = value("target_session_attrs")
        let passes = attributes == "prefer-standby" ? ["standby", "any"] : [attributes]
        let listed: Set<String> = ["host", "hostaddr", "port", "target_session_attrs"]
        let rest = options.filter { !listed.contains($0.keyword) }
        var attempts: [[Option]] = []
        for pass in passes {
            for index in 0..<count {
                var attempt = rest
                if index < hosts.count { attempt.append(Option(keyword: "host", value: hosts[index], isSecret: false)) }
                if index < addresses.count {
                    attempt.append(Option(keyword: "hostaddr", value: addresses[index], isSecret: false))
                }
                if !ports.isEmpty {
                    attempt.append(Option(keyword: "port", value: ports.count == 1 ? ports[0] : ports[index], isSecret: false))
                }
                if let pass { attempt.append(Option(keyword: "target_session_attrs", value: pass, isSecret: false)) }
                attempts.append(attempt)
            }
        }
        return attempts
    }
}
