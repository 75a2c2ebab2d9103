import Foundation
import TestSupport
import Testing

/// Status, health and metrics are the operator's (SPEC 3): the responder answers them itself
/// only to loopback, or to the networks of `LIVEACTIVITY_MONITOR_FROM`, whatever is in front of
/// it - nginx's `allow` lines missing from a location written otherwise, a CGI server, a client
/// of the FastCGI socket (issue 26 point 5). The app's routes are not affected.
@Suite("Monitoring routes answer the host alone")
struct MonitoringAccessTests {
    static let monitoringPaths = ["/wakeup/status", "/wakeup/health", "/wakeup/metrics"]
    /// An address nginx takes for the client's (realip, from the test's own header).
    static let stranger = "203.0.113.7"

    /// Locations an operator might write: one for each monitoring route with neither nginx's
    /// `allow` lines nor the client's address (the shipped FastCGI snippet alone), and under
    /// `/fwd/` the same passing `REMOTE_ADDR` (as Debian's own `fastcgi_params` does), with nginx
    /// taking the client's address from a header of the test's (realip), to play a stranger.
    static let otherLocations = """
        set_real_ip_from 127.0.0.1;
        real_ip_header X-Test-Client;
        location ~ ^/open/wakeup/(status|health|metrics)$ { include snippets/liveactivity-fastcgi.conf; }
        location ~ ^/fwd/wakeup/(status|health|metrics)$ {
            include snippets/liveactivity-fastcgi.conf;
            fastcgi_param REMOTE_ADDR $remote_addr;
        }
        """

    func stack(_ engine: TestEngine, monitorFrom: String? = nil, label: String) throws -> LiveStack {
        var options = LiveStack.Options(engine: engine)
        options.serverLines = Self.otherLocations
        if let monitorFrom { options.environment["LIVEACTIVITY_MONITOR_FROM"] = monitorFrom }
        return try LiveStack(options, label: label)
    }

    func get(_ stack: LiveStack, _ path: String, as client: String? = nil) throws -> HTTPResult {
        try HTTPClient.request(
            port: stack.port, method: "GET", path: path, headers: client.map { [("X-Test-Client", $0)] } ?? [])
    }

    @Test(arguments: TestEngine.real)
    func aLocationWithoutNginxsRuleOrTheClientsAddressPublishesNothing(engine: TestEngine) throws {
        let stack = try stack(engine, label: "monitor-open")
        for path in Self.monitoringPaths {
            let shipped = try get(stack, path)
            #expect(shipped.status == 200, "the shipped \(path) from 127.0.0.1: \(shipped.status) \(shipped.text.prefix(120))")
            let open = try get(stack, "/open" + path)
            #expect(open.status == 403, "/open\(path): \(open.status) \(open.text.prefix(120))")
            #expect(open.text == #"{"error":"Forbidden"}"#)
        }
        #expect(try stack.request("POST", "/wakeup", body: registerBody(testToken(1))).status == 200)
    }

    @Test(arguments: TestEngine.real) func aStrangerIsRefusedAndTheHostAnsweredThroughALocationThatPassesTheAddress(
        engine: TestEngine
    ) throws {
        let stack = try stack(engine, label: "monitor-fwd")
        for path in Self.monitoringPaths {
            #expect(try get(stack, "/fwd" + path, as: Self.stranger).status == 403, "/fwd\(path) from a stranger")
            #expect(try get(stack, "/fwd" + path).status == 200, "/fwd\(path) from 127.0.0.1")
            // nginx's own rule on the shipped location refuses the stranger first.
            #expect(try get(stack, path, as: Self.stranger).status == 403, "\(path) from a stranger")
        }
    }

    @Test(arguments: TestEngine.real)
    func theOperatorsNetworksMayReadThem(engine: TestEngine) throws {
        let stack = try stack(engine, monitorFrom: "198.51.100.0/24, 203.0.113.0/28", label: "monitor-from")
        for path in Self.monitoringPaths {
            #expect(try get(stack, "/fwd" + path, as: Self.stranger).status == 200, "/fwd\(path) from a monitor network")
            #expect(try get(stack, "/fwd" + path, as: "203.0.113.77").status == 403, "/fwd\(path) beyond the /28")
        }
    }

    @Test func aClientOfTheSocketIsAnsweredOnlyForTheHost() throws {
        let folder = TemporaryDirectory("monitor-socket")
        let socketPath = folder.file("fcgi.sock")
        let responder = try ChildProcess(
            product("liveactivity-fcgi"), ["--socket", socketPath, "--workers", "2"],
            environment: ["LIVEACTIVITY_DB": folder.file("db.sqlite"), "PATH": "/usr/bin:/bin"],
            outputPath: folder.file("fcgi.log"))
        #expect(waitUntil(timeout: 60) { (try? RawSocket(unixPath: socketPath, timeout: 1)) != nil }, "\(responder.output)")
        func status(_ path: String, from address: String?) throws -> Int {
            var parameters = ["REQUEST_METHOD": "GET", "DOCUMENT_URI": path]
            parameters["REMOTE_ADDR"] = address
            return try FastCGIClient.request(over: RawSocket(unixPath: socketPath), parameters: parameters).status
        }
        for path in Self.monitoringPaths {
            #expect(try status(path, from: nil) == 403, "\(path) without REMOTE_ADDR")
            #expect(try status(path, from: "192.0.2.10") == 403, "\(path) from 192.0.2.10")
            #expect(try status(path, from: "not an address") == 403, "\(path) from a malformed address")
            for local in ["127.0.0.1", "127.0.0.2", "::1", "::ffff:127.0.0.1"] {
                #expect(try status(path, from: local) == 200, "\(path) from \(local)")
            }
        }
        #expect(responder.stop() == .exited(0))
    }

    /// One CGI run of `GET path` (Apache's ScriptAlias style), with `REMOTE_ADDR` when given.
    func cgi(_ path: String, from address: String?, settings: [String: String] = [:]) throws -> CommandResult {
        let folder = TemporaryDirectory("monitor-cgi")
        var environment = [
            "GATEWAY_INTERFACE": "CGI/1.1", "REQUEST_METHOD": "GET", "SCRIPT_NAME": "/wakeup",
            "PATH_INFO": String(path.dropFirst("/wakeup".count)), "LIVEACTIVITY_DB": folder.file("db.sqlite"),
            "PATH": "/usr/bin:/bin",
        ]
        environment["REMOTE_ADDR"] = address
        environment.merge(settings) { _, new in new }
        return try runCommand(product("liveactivity-fcgi"), [], environment: environment)
    }

    @Test func underACGIServerTheClientsAddressDecides() throws {
        for path in Self.monitoringPaths {
            #expect(try cgi(path, from: "192.0.2.10").stdout.hasPrefix("Status: 403"), "\(path) from 192.0.2.10")
            #expect(try cgi(path, from: "::1").stdout.hasPrefix("Status: 200"), "\(path) from ::1")
            // Run by hand on the host, no server in between: local, as `stats --html` is.
            #expect(try cgi(path, from: nil).stdout.hasPrefix("Status: 200"), "\(path) without REMOTE_ADDR")
            let allowed = try cgi(path, from: "2001:db8:5::1", settings: ["LIVEACTIVITY_MONITOR_FROM": "2001:db8::/32"])
            #expect(allowed.stdout.hasPrefix("Status: 200"), "\(path) from a monitor network: \(allowed.stdout.prefix(80))")
        }
    }

    @Test func aMalformedOrUnboundedNetworkListIsOneLineNamingIt() throws {
        let tooMany = (0..<33).map { "10.0.\($0).0/24" }.joined(separator: ",")
        for value in ["10.0.0.0/33", "10.1.0.0/8", "example.org", "10.0.0.1:80", "::1/129", "1e300", ",", tooMany] {
            let run = try cgi("/wakeup/health", from: "127.0.0.1", settings: ["LIVEACTIVITY_MONITOR_FROM": value])
            let lines = run.stderr.split(separator: "\n")
            #expect(
                run.status == 2 && lines.count == 1 && lines.first?.contains("LIVEACTIVITY_MONITOR_FROM") == true,
                "LIVEACTIVITY_MONITOR_FROM=\(value.prefix(40)): exit \(run.status), stderr \(run.stderr.prefix(200))")
        }
    }

    /// The app's routes carry no client address to the responder (SPEC 1): only the monitoring
    /// locations pass `REMOTE_ADDR`, and only for the responder's own check.
    @Test func onlyTheMonitoringLocationsPassTheClientsAddress() throws {
        let snippet = try String(contentsOfFile: packageRoot + "/nginx/liveactivity-fastcgi.conf", encoding: .utf8)
        #expect(!snippet.split(separator: "\n").contains { !$0.hasPrefix("#") && $0.contains("REMOTE_ADDR") })
        let locations = try String(contentsOfFile: packageRoot + "/nginx/liveactivity-locations.conf", encoding: .utf8)
        let blocks = locations.components(separatedBy: "location ").dropFirst()
        for block in blocks {
            let passes = block.contains("fastcgi_param REMOTE_ADDR")
            let monitoring = Self.monitoringPaths.contains { block.hasPrefix("= \($0) ") }
            #expect(passes == monitoring, "location \(block.prefix(40)): passes REMOTE_ADDR \(passes)")
            if passes {
                #expect(block.contains("deny all;"), "location \(block.prefix(40)) passes the address without nginx's rule")
            }
        }
    }
}
