import Foundation
import TestSupport
import Testing

/// nginx's per-client rate limit keys an IPv6 client by its /64 (SPEC 7, issue 18 point 11): the
/// shipped `map` run by the real nginx. The key of many address forms, through a test location
/// that echoes it, and the limiter itself on [::1] with two addresses of one /64.
@Suite("Client key through nginx")
struct ClientKeyThroughNginxTests {
    /// The map block of a shipped file, between its BEGIN and END lines, without indentation.
    static func clientKeyMap(in file: String) throws -> String {
        let text = try String(contentsOfFile: packageRoot + "/nginx/" + file, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard let begin = lines.firstIndex(where: { $0.hasPrefix("# BEGIN client key") }),
            let end = lines.firstIndex(where: { $0 == "# END client key" }), begin < end
        else { throw SocketError("\(file) has no client key map") }
        return lines[begin...end].joined(separator: "\n")
    }

    static func limitZone(in file: String) throws -> String {
        let text = try String(contentsOfFile: packageRoot + "/nginx/" + file, encoding: .utf8)
        guard let line = text.split(separator: "\n").first(where: { $0.contains("zone=liveactivity_clients") }) else {
            throw SocketError("\(file) has no limit_req_zone")
        }
        return line.trimmingCharacters(in: .whitespaces)
    }

    /// An nginx of the test's own with `http` inside its http block.
    func startNginx(_ folder: TemporaryDirectory, listen: (Int) -> String, http: String) throws -> (
        port: Int, process: ChildProcess
    ) {
        let prefix = folder.path
        try "ok\n".write(toFile: prefix + "/limited.txt", atomically: true, encoding: .utf8)
        return try LoopbackNginx.start(prefix: prefix, outputPath: folder.file("nginx.out")) { port in
            """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(prefix)/nginx.pid;
            error_log \(prefix)/error.log info;
            events { worker_connections 64; }
            http {
                client_body_temp_path \(prefix)/client_body_temp;
                fastcgi_temp_path \(prefix)/fastcgi_temp;
                proxy_temp_path \(prefix)/proxy_temp;
                uwsgi_temp_path \(prefix)/uwsgi_temp;
                scgi_temp_path \(prefix)/scgi_temp;
                access_log off;
                default_type text/plain;
            \(http)
                server {
            \(listen(port))
                    location = /key { return 200 "$test_header_key\\n"; }
                    # A file, not `return`: `return` answers before the limit is checked.
                    location = /limited {
                        limit_req zone=liveactivity_clients nodelay;
                        limit_req_status 429;
                        add_header X-Client-Key $liveactivity_client_key;
                        alias \(prefix)/limited.txt;
                    }
                }
            }
            """
        }
    }

    /// The /64 of `address` as the key writes it: four groups in hex, no leading zeros.
    static func expectedKey(_ address: String) -> String? {
        var bytes = in6_addr()
        guard inet_pton(AF_INET6, address, &bytes) == 1 else { return nil }
        let octets = withUnsafeBytes(of: &bytes) { Array($0) }
        return (0..<4).map { String(UInt16(octets[2 * $0]) << 8 | UInt16(octets[2 * $0 + 1]), radix: 16) }.joined(
            separator: ":")
    }

    /// `bytes` as nginx writes an IPv6 $remote_addr (RFC 5952, as glibc's inet_ntop does).
    static func text(of bytes: [UInt8]) -> String {
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count))
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test func theSiteAndTheTestTemplateShareOneMapAndKeyTheLimitByIt() throws {
        #expect(try Self.clientKeyMap(in: "liveactivity-site.conf") == Self.clientKeyMap(in: "local.conf.template"))
        for file in ["liveactivity-site.conf", "local.conf.template"] {
            #expect(try Self.limitZone(in: file).hasPrefix("limit_req_zone $liveactivity_client_key "), "\(file)")
        }
    }

    @Test func everyFormOfAnIPv6AddressIsKeyedByItsSlash64() throws {
        let folder = TemporaryDirectory("clientkey")
        // The shipped map, fed from a header instead of the peer's address.
        let map = try Self.clientKeyMap(in: "local.conf.template")
            .replacingOccurrences(of: "map $remote_addr $liveactivity_client_key", with: "map $http_x_client $test_header_key")
            .replacingOccurrences(of: "$binary_remote_addr", with: "ipv4-binary")
        let (port, nginx) = try startNginx(
            folder, listen: { "listen 127.0.0.1:\($0);" },
            http: map + "\n" + (try Self.limitZone(in: "local.conf.template")).replacingOccurrences(of: "@RATE@", with: "1r/s")
                + "\n" + (try Self.clientKeyMap(in: "local.conf.template")))
        defer { nginx.stop() }

        var cases: [(String, String)] = [
            ("2001:db8:1:2::1", "2001:db8:1:2"), ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2"),
            ("2001:db8::1", "2001:db8:0:0"), ("2001:db8::2:3:4:5", "2001:db8:0:0"),
            ("2001::2:3:4:5:6", "2001:0:0:2"), ("::2:3:4:5:6:7", "0:0:2:3"), ("::3:4:5:6:7", "0:0:0:3"),
            ("2001:db8:1::5", "2001:db8:1:0"), ("2001:db8:0:0:1::", "2001:db8:0:0"), ("2001:db8:0:1::", "2001:db8:0:1"),
            ("fe80::1", "fe80:0:0:0"), ("::1", "0:0:0:0"), ("::", "0:0:0:0"), ("::ffff:192.0.2.1", "192.0.2.1"),
            ("192.0.2.1", "ipv4-binary"),
        ]
        // Random addresses with runs of zero groups, written as nginx writes them.
        var generator = SystemRandomNumberGenerator()
        while cases.count < 215 {
            var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
            for group in 0..<8 where Bool.random(using: &generator) {
                bytes[2 * group] = 0
                bytes[2 * group + 1] = 0
            }
            let address = Self.text(of: bytes)
            // The ::/96 forms glibc writes with a dotted quad; nginx does not (and they are no clients).
            guard !address.contains("."), let key = Self.expectedKey(address) else { continue }
            cases.append((address, key))
        }
        for (address, key) in cases {
            let answer = try runCommand(
                "/usr/bin/curl", ["-s", "-H", "X-Client: \(address)", "http://127.0.0.1:\(port)/key"], environment: [:])
            #expect(answer.stdout == key + "\n", "\(address): key '\(answer.stdout)' (curl exit \(answer.status))")
        }
    }

    static let slash64 = ["fd6c:1a7e:5eed:1::a", "fd6c:1a7e:5eed:1::b"]
    static let otherSlash64 = "fd6c:1a7e:5eed:2::a"
    static var canAddAddresses: Bool {
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip")
            && ((try? String(contentsOfFile: "/proc/net/if_inet6", encoding: .utf8))?.contains(
                "00000000000000000000000000000001") ?? false)
    }

    /// Two addresses of one /64 share one limit; another /64 has its own. Real nginx on [::1],
    /// clients bound to addresses added to lo for the test (root, IPv6 on) and removed after.
    @Test(.enabled(if: canAddAddresses, "needs root, /usr/sbin/ip and IPv6 on lo to add test addresses"))
    func twoAddressesOfOneSlash64ShareOneLimit() throws {
        let addresses = Self.slash64 + [Self.otherSlash64]
        func ip(_ action: String, _ address: String) throws -> CommandResult {
            try runCommand("/usr/sbin/ip", ["-6", "addr", action, address + "/128", "dev", "lo"], environment: [:])
        }
        for address in addresses { _ = try? ip("del", address) }
        defer { for address in addresses { _ = try? ip("del", address) } }
        for address in addresses {
            let added = try ip("add", address)
            #expect(added.status == 0, "ip -6 addr add \(address): \(added.stderr)")
        }

        let folder = TemporaryDirectory("clientlimit")
        let zone = try Self.limitZone(in: "local.conf.template").replacingOccurrences(of: "@RATE@", with: "1r/m")
        let (port, nginx) = try startNginx(
            folder, listen: { "listen 127.0.0.1:\($0);\nlisten [::1]:\($0);" },
            http: try Self.clientKeyMap(in: "local.conf.template") + "\n" + zone
                + "\nmap $http_x_client $test_header_key { default none; }")
        defer { nginx.stop() }
        func status(from source: String) throws -> String {
            try runCommand(
                "/usr/bin/curl",
                ["-s", "-g", "-o", "/dev/null", "-w", "%{http_code}", "--interface", source, "http://[::1]:\(port)/limited"],
                environment: [:]
            ).stdout
        }
        // A rate of one a minute: each key's first request passes, its second is refused.
        #expect(try status(from: Self.slash64[0]) == "200")
        #expect(try status(from: Self.slash64[1]) == "429", "a second address of the same /64 got its own limit")
        #expect(try status(from: Self.otherSlash64) == "200", "another /64 shares the first one's limit")
        #expect(try status(from: "::1") == "200")
        #expect(try status(from: "::1") == "429")
    }
}
