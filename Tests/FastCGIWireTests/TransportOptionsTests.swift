import Testing

@testable import FastCGIWire

@Suite struct TransportOptionsTests {
    func parse(_ arguments: [String]) throws(TransportUsageError) -> TransportOptions.Command {
        try TransportOptions.parse(arguments, maximumBodySize: 4096)
    }

    @Test func noFlagsServeTheInheritedSocketWithTheDefaults() throws {
        #expect(try parse([]) == .serve(TransportOptions(maximumBodySize: 4096)))
        guard case .serve(let options) = try parse([]) else {
            Issue.record("not serve")
            return
        }
        #expect(options.address == nil && options.workers == 64 && options.backlog == 128 && !options.supervise)
    }

    @Test func everyFlagIsRead() throws {
        let command = try parse([
            "--socket", "/run/x.sock", "--socket-mode", "0600", "--workers", "8", "--backlog", "10", "--supervise",
        ])
        guard case .serve(let options) = command else {
            Issue.record("not serve")
            return
        }
        #expect(options.address == .unix(path: "/run/x.sock", mode: 0o600))
        #expect(options.workers == 8 && options.backlog == 10 && options.supervise)
        #expect(options.maximumBodySize == 4096)
    }

    @Test func helpWinsOverServing() throws {
        #expect(try parse(["--workers", "2", "--help"]) == .help)
        #expect(try parse(["-h"]) == .help)
    }

    @Test(arguments: [
        (["--workers", "0"], "--workers must be a whole number from 1 to 256"),
        (["--workers", "257"], "--workers must be a whole number from 1 to 256"),
        (["--backlog", "x"], "--backlog must be a whole number from 1 to 65535"),
        (["--socket-mode", "0999"], "--socket-mode must be octal permissions such as 0660"),
        (["--socket-mode", "1777"], "--socket-mode must be octal permissions such as 0660"),
        (["--socket"], "--socket needs a value"),
        (["--socket", ""], "--socket needs a unix socket path or 127.0.0.1:PORT"),
        (["--bogus"], "unknown argument --bogus; see --help"),
    ])
    func mistakesAreOneLineErrors(arguments: [String], message: String) {
        #expect(throws: TransportUsageError(message)) { try parse(arguments) }
    }

    @Test func socketValuesAreTCPOnlyWhenTheyEndInAPortAndAreNoPath() {
        #expect(ListenAddress.parse("127.0.0.1:9000", unixMode: 0o660) == .tcp(hostAndPort: "127.0.0.1:9000"))
        #expect(ListenAddress.parse("localhost:9000", unixMode: 0o660) == .tcp(hostAndPort: "127.0.0.1:9000"))
        #expect(ListenAddress.parse("/run/a:9000", unixMode: 0o660) == .unix(path: "/run/a:9000", mode: 0o660))
        #expect(ListenAddress.parse("host:99999", unixMode: 0o640) == .unix(path: "host:99999", mode: 0o640))
        #expect(ListenAddress.parse("", unixMode: 0o660) == nil)
    }

    /// A port alone is a loopback socket (SPEC 7): libfcgi would bind every interface for it.
    @Test(arguments: [":9000", "9000", "localhost:9000", "127.0.0.1:9000"])
    func aPortWithoutAHostListensOnLoopback(_ text: String) throws {
        guard case .serve(let options) = try parse(["--socket", text]) else {
            Issue.record("not serve")
            return
        }
        #expect(options.address == .tcp(hostAndPort: "127.0.0.1:9000"))
        #expect(options.address?.reachesBeyondLoopback == false)
    }

    @Test func otherLoopbackAddressesAreKept() throws {
        guard case .serve(let options) = try parse(["--socket", "127.0.0.2:9000"]) else {
            Issue.record("not serve")
            return
        }
        #expect(options.address == .tcp(hostAndPort: "127.0.0.2:9000") && options.address?.reachesBeyondLoopback == false)
    }

    @Test(arguments: ["0.0.0.0:9000", "*:9000", "192.0.2.7:9000", "example.com:9000", "127.0.0.1.example.com:9000"])
    func aHostBeyondLoopbackNeedsTheFlagSaidInSoManyWords(_ text: String) throws {
        #expect(
            throws: TransportUsageError(
                "--socket \(text) listens beyond loopback, where anyone who reaches the port picks the environment and skips nginx's limits; add --listen-beyond-loopback to mean it"
            )
        ) { try parse(["--socket", text]) }
        guard case .serve(let options) = try parse(["--socket", text, "--listen-beyond-loopback"]) else {
            Issue.record("not serve")
            return
        }
        #expect(options.address == .tcp(hostAndPort: text) && options.address?.reachesBeyondLoopback == true)
    }
}
