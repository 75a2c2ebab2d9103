import Foundation
import TestSupport
import Testing

/// A real nginx on loopback speaking HTTP/2 over TLS with a self-signed certificate for
/// 127.0.0.1, standing in for APNs with scripted answers chosen by the token's first digits:
///
/// - `0400…` 400 BadDeviceToken, `0403…` 403 ExpiredProviderToken, `0410…` 410 Unregistered
///   with a timestamp, `0429…` 429 TooManyRequests, `0500…` 500 InternalServerError,
/// - `5110…` never answered (proxied to a socket that never accepts),
/// - anything else 200 with a fixed `apns-id`.
///
/// The TLS front proxies to a plain backend so that `$request_body` is read and logged: every
/// request is one line of `access.log` with the connection number, protocol and APNs headers.
final class NginxAPNsFixture {
    static let apnsID = "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a"
    static let unregisteredTimestamp: Int64 = 1_700_000_000_123

    let folder = TemporaryDirectory("apns-nginx")
    let port = freePort()
    let backendPort = freePort()
    let silent: SilentListener
    private var nginx: ChildProcess?

    var baseURL: String { "https://127.0.0.1:\(port)" }
    var certificatePath: String { folder.file("cert.pem") }

    /// `http2_max_concurrent_streams`: nginx's default is 128.
    let maxConcurrentStreams: Int

    init(maxConcurrentStreams: Int = 128) throws {
        self.maxConcurrentStreams = maxConcurrentStreams
        let nginxPath = try #require(systemTool("nginx"), "nginx is not installed")
        silent = try SilentListener()
        let certificate = try runCommand(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", folder.file("key.pem"), "-out", certificatePath, "-days", "2",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            ])
        try #require(certificate.status == 0, "openssl req failed: \(certificate.stderr)")
        try folder.write("nginx.conf", configuration())
        nginx = try ChildProcess(
            nginxPath,
            ["-p", folder.path, "-c", folder.file("nginx.conf"), "-e", folder.file("error.log"), "-g", "daemon off;"],
            outputPath: folder.file("nginx.out"))
        let ready = waitUntil(timeout: 10) { canConnect(port: self.port) && canConnect(port: self.backendPort) }
        try #require(ready, "nginx did not start: \(nginx?.output ?? "") \(errorLog)")
    }

    deinit { nginx?.stop() }

    /// The access log's lines, split into fields.
    var accessLog: [LogLine] {
        let text = (try? String(contentsOfFile: folder.file("access.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { LogLine(String($0)) }
    }

    /// The access log once it has at least `count` lines (nginx writes a line just after it
    /// answers, so a client can see the answer first), or as it is after `timeout` seconds.
    func accessLog(atLeast count: Int, timeout: TimeInterval = 5) -> [LogLine] {
        var lines: [LogLine] = []
        _ = waitUntil(timeout: timeout) {
            lines = accessLog
            return lines.count >= count
        }
        return lines
    }

    var errorLog: String { (try? String(contentsOfFile: folder.file("error.log"), encoding: .utf8)) ?? "" }

    /// One request as the front logged it.
    struct LogLine {
        let fields: [String]
        init(_ line: String) { fields = line.components(separatedBy: "|") }
        var connection: String { fields[0] }
        var serverProtocol: String { fields[1] }
        var method: String { fields[2] }
        var uri: String { fields[3] }
        var authorization: String { fields[4] }
        var topic: String { fields[5] }
        var pushType: String { fields[6] }
        var priority: String { fields[7] }
        var expiration: String { fields[8] }
        var contentType: String { fields[9] }
        var body: String { fields[10] }
        var status: String { fields[11] }
    }

    private func configuration() -> String {
        let dir = folder.path
        func answer(_ prefix: String, _ status: Int, _ body: String) -> String {
            "        location ~ ^/3/device/\(prefix) { return \(status) '\(body)'; }\n"
        }
        return """
            worker_processes 1;
            pid \(dir)/nginx.pid;
            error_log \(dir)/error.log warn;
            events { worker_connections 4096; }
            http {
                client_body_temp_path \(dir)/body;
                proxy_temp_path \(dir)/proxy;
                fastcgi_temp_path \(dir)/fastcgi;
                uwsgi_temp_path \(dir)/uwsgi;
                scgi_temp_path \(dir)/scgi;
                default_type application/json;
                access_log off;
                # | separates fields; escape=none keeps the JSON body as sent.
                log_format apns escape=none '$connection|$server_protocol|$request_method|$uri|$http_authorization|$http_apns_topic|$http_apns_push_type|$http_apns_priority|$http_apns_expiration|$http_content_type|$request_body|$status';
                upstream backend { server 127.0.0.1:\(backendPort); keepalive 32; }
                server {
                    listen 127.0.0.1:\(port) ssl http2;
                    ssl_certificate \(dir)/cert.pem;
                    ssl_certificate_key \(dir)/key.pem;
                    keepalive_requests 1000000;
                    http2_max_concurrent_streams \(maxConcurrentStreams);
                    client_body_buffer_size 16k;
                    access_log \(dir)/access.log apns;
                    location /3/device/ {
                        proxy_pass http://backend;
                        proxy_http_version 1.1;
                        proxy_set_header Connection "";
                    }
                    location ~ ^/3/device/5110 {
                        proxy_pass http://127.0.0.1:\(silent.port);
                        proxy_connect_timeout 60s;
                        proxy_read_timeout 60s;
                    }
                }
                server {
                    listen 127.0.0.1:\(backendPort);
                    keepalive_requests 1000000;
                    add_header apns-id \(Self.apnsID) always;
                    location /3/device/ { return 200 ''; }
            \(answer("0400", 400, #"{"reason":"BadDeviceToken"}"#))\
            \(answer("0403", 403, #"{"reason":"ExpiredProviderToken"}"#))\
            \(answer("0410", 410, #"{"reason":"Unregistered","timestamp":\#(Self.unregisteredTimestamp)}"#))\
            \(answer("0429", 429, #"{"reason":"TooManyRequests"}"#))\
            \(answer("0500", 500, #"{"reason":"InternalServerError"}"#))\
                }
            }

            """
    }
}
