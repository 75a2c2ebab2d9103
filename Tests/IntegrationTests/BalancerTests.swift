import Foundation
import LiveActivityDomain
import TestSupport
import Testing

/// docs/SEVERAL-HOSTS.md's load balancer in front of several hosts ("Spreading the API"), run as written (issue
/// 30 point 5): a real nginx balancer over HTTPS to two hosts, each the shipped site on the
/// shipped locations with the document's two lines for the client's address. Before, every host keyed
/// its per-client rate limit on the balancer's address, so one client's burst made everyone 429,
/// and `/dev/`, `/prod/` and the monitoring routes were passed as they came.
@Suite("A load balancer in front of two hosts")
struct BalancerTests {
    /// The blocks under "Spreading the API": the balancer's (http part, server part) and each host's lines.
    static func readmeBlocks() throws -> (http: String, server: String, host: String) {
        let blocks = try MarkdownBlock.all("nginx", in: "docs/SEVERAL-HOSTS.md").filter { $0.heading == "Spreading the API" }
            .map { String($0.text.dropLast()) }
        try #require(blocks.count == 2, "docs/SEVERAL-HOSTS.md's balancer and host blocks")
        let parts = blocks[blocks.startIndex].components(separatedBy: "# in its server block for wakeup.your-domain.tld:\n")
        try #require(parts.count == 2, "the balancer's block names where its server block begins")
        return (parts[0], parts[1], blocks[blocks.startIndex + 1])
    }

    /// One host: the shipped site on loopback (its own database), also over TLS on `tlsPort` with
    /// `certificate`, the document's host lines in its server block with the balancer at 127.0.0.1, and
    /// the shipped rate with a refill too slow to matter within a test (burst 20 stays).
    static func host(
        _ engine: TestEngine, _ label: String, certificate: TestCertificate, hostLines: String, database: String? = nil
    ) throws -> (stack: LiveStack, tlsPort: Int) {
        var lastError: (any Error)?
        for _ in 0..<3 {
            let tlsPort = freePort()
            var options = LiveStack.Options(engine: engine)
            options.rate = "1r/m"
            // The hosts share one database, as several hosts do.
            if let database { options.environment["LIVEACTIVITY_DB"] = database }
            options.serverLines = """
                listen 127.0.0.1:\(tlsPort) ssl;
                ssl_certificate \(certificate.certificatePath);
                ssl_certificate_key \(certificate.keyPath);
                \(hostLines.replacingOccurrences(of: "192.0.2.10", with: "127.0.0.1"))
                """
            do {
                return (try LiveStack(options, label: label), tlsPort)
            } catch {
                lastError = error  // the TLS port was taken meanwhile: another
            }
        }
        throw lastError ?? SocketError("no host")
    }

    /// The balancer, the document's lines as written but for the hosts' addresses, the trusted CA and
    /// the site's name (the test's certificates name `localhost`).
    static func balancer(
        in folder: TemporaryDirectory, hosts: [Int], trusting ca: String, blocks: (http: String, server: String, host: String)
    ) throws -> (port: Int, process: ChildProcess, prefix: String) {
        let prefix = folder.file("balancer")
        try FileManager.default.createDirectory(atPath: prefix, withIntermediateDirectories: true)
        var http = blocks.http
        let servers = hosts.map { "    server 127.0.0.1:\($0) max_fails=1 fail_timeout=10s;" }.joined(separator: "\n")
        http = http.replacingOccurrences(
            of:
                "    server web1.example.net:443 max_fails=1 fail_timeout=10s;\n    server web2.example.net:443 max_fails=1 fail_timeout=10s;",
            with: servers)
        let server = blocks.server.replacingOccurrences(of: "/var/log/nginx/", with: prefix + "/")
            .replacingOccurrences(of: "/etc/ssl/certs/ca-certificates.crt", with: ca)
            .replacingOccurrences(of: "wakeup.your-domain.tld", with: "localhost")
        let started = try LoopbackNginx.start(prefix: prefix, outputPath: folder.file("balancer.out")) { port in
            """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(prefix)/nginx.pid;
            error_log \(prefix)/error.log info;
            events { worker_connections 256; }
            http {
                client_body_temp_path \(prefix)/client_body_temp;
                proxy_temp_path \(prefix)/proxy_temp;
                fastcgi_temp_path \(prefix)/fastcgi_temp;
                uwsgi_temp_path \(prefix)/uwsgi_temp;
                scgi_temp_path \(prefix)/scgi_temp;
            \(http)
                server {
                    listen 127.0.0.1:\(port);
                    server_name localhost;
            \(server)
                    location / { return 404; }
                }
            }
            """
        }
        return (started.port, started.process, prefix)
    }

    func post(_ port: Int, _ path: String, _ body: String, from address: String) throws -> HTTPResult {
        try HTTPClient.request(
            port: port, method: "POST", path: path, headers: [("Content-Type", "application/json")], body: Array(body.utf8),
            sourceAddress: address)
    }

    @Test(arguments: TestEngine.real)
    func twoClientsAreLimitedApartAndOnlyTheAppsRoutesPassVerified(engine: TestEngine) throws {
        let blocks = try Self.readmeBlocks()
        let folder = TemporaryDirectory("balancer")
        let certificate = try TestCertificate(in: folder, name: "hosts")
        let web1 = try Self.host(engine, "web1", certificate: certificate, hostLines: blocks.host)
        let web2 = try Self.host(
            engine, "web2", certificate: certificate, hostLines: blocks.host, database: web1.stack.database.setting)
        let hosts = [web1, web2]
        let balancer = try Self.balancer(
            in: folder, hosts: hosts.map(\.tlsPort), trusting: certificate.certificatePath, blocks: blocks)
        defer { _ = balancer.process.stop() }

        // One client past its burst at every host (one request and a burst of 20 each, the rate's
        // refill of one a minute too slow to count): 429s for it, never for another client.
        var first: [Int] = []
        for seed in 0..<50 {
            first.append(try post(balancer.port, "/wakeup", registerBody(testToken(8000 + seed)), from: "127.0.0.2").status)
        }
        #expect(first.filter { $0 == 200 }.count == 42, "two hosts, 21 each: \(first)")
        #expect(first.filter { $0 == 429 }.count == 8, "\(first)")
        let second = try (0..<10).map {
            try post(balancer.port, "/wakeup", registerBody(testToken(8100 + $0)), from: "127.0.0.3").status
        }
        #expect(second.allSatisfy { $0 == 200 }, "another client was limited by the first one's burst: \(second)")
        // A client cannot pass as another by sending the header itself.
        let forged = try HTTPClient.request(
            port: balancer.port, method: "POST", path: "/wakeup",
            headers: [("Content-Type", "application/json"), ("X-Forwarded-For", "127.0.0.3")],
            body: Array(registerBody(testToken(8200)).utf8), sourceAddress: "127.0.0.2")
        #expect(forged.status == 429, "a forged X-Forwarded-For moved the first client's limit: \(forged.status)")

        // Both prefixes reach a host and choose the environment; unregister, ack and diagnostics pass too.
        let sandbox = testToken(8300)
        let production = testToken(8301)
        #expect(try post(balancer.port, "/dev/wakeup", registerBody(sandbox), from: "127.0.0.4").status == 200)
        #expect(try post(balancer.port, "/prod/wakeup", registerBody(production), from: "127.0.0.4").status == 200)
        func stored(_ token: String) throws -> Registration? {
            try web1.stack.database.registration(PushToken(validating: token))
        }
        #expect(try stored(sandbox)?.environment == .sandbox)
        #expect(try stored(production)?.environment == .production)
        #expect(try post(balancer.port, "/prod/wakeup/ack", unregisterBody(production), from: "127.0.0.4").status == 200)
        let diagnosed = try post(balancer.port, "/prod/wakeup/diagnostics", unregisterBody(production), from: "127.0.0.4")
        #expect(diagnosed.status == 200 && diagnosed.text.hasPrefix("{\"registered\":true,"), "\(diagnosed.text)")
        #expect(try post(balancer.port, "/dev/wakeup/unregister", unregisterBody(sandbox), from: "127.0.0.4").status == 200)
        #expect(try stored(sandbox) == nil)

        // The monitoring routes are each host's own: the balancer passes none of them.
        for path in ["/wakeup/status", "/wakeup/health", "/wakeup/metrics", "/dev/wakeup/health", "/prod/wakeup/status"] {
            let answer = try HTTPClient.request(port: balancer.port, method: "GET", path: path, sourceAddress: "127.0.0.1")
            #expect(answer.status == 404, "the balancer passed \(path): \(answer.status)")
        }
        // Nothing past the body cap.
        let big = "{\"pushToken\":\"\(testToken(8400))\",\"pad\":\"\(String(repeating: "x", count: 5000))\"}"
        #expect(try post(balancer.port, "/wakeup", big, from: "127.0.0.4").status == 413)

        // No client address in any access log.
        let logs =
            [(try? String(contentsOfFile: balancer.prefix + "/liveactivity-balancer.access.log", encoding: .utf8)) ?? ""]
            + hosts.map(\.stack.accessLog)
        #expect(!logs[0].isEmpty, "the balancer's access log is where the document says")
        for log in logs {
            for address in ["127.0.0.2", "127.0.0.3", "127.0.0.4"] {
                #expect(!log.contains(address), "an access log holds \(address): \(log.suffix(300))")
            }
        }

        // A host whose certificate the balancer cannot verify is never sent a request.
        let stranger = try TestCertificate(in: folder, name: "stranger")
        let unverified = try Self.balancer(
            in: TemporaryDirectory("balancer-untrusted"), hosts: [hosts[0].tlsPort], trusting: stranger.certificatePath,
            blocks: blocks)
        defer { _ = unverified.process.stop() }
        let before = hosts[0].stack.accessLog.split(separator: "\n").count
        let refused = try post(unverified.port, "/wakeup", registerBody(testToken(8500)), from: "127.0.0.5")
        #expect(refused.status == 502, "a host that does not verify answered through the balancer: \(refused.status)")
        #expect(hosts[0].stack.accessLog.split(separator: "\n").count == before, "the unverified host was sent the request")
        #expect(try stored(testToken(8500)) == nil)
    }
}
