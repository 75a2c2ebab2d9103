import Foundation
import TestSupport
import Testing

@testable import FastCGIWire

/// Plain CGI (RFC 3875) in this process: the request from an environment and a pipe as stdin,
/// the answer read back from a pipe as stdout.
@Suite struct CGIExchangeTests {
    /// Runs one exchange; returns the exit status, the parsed answer (if any) and the log.
    func exchange(
        _ environment: [String: String], stdin: [UInt8] = [], bodyLimit: Int = 100,
        makeResponder: (Int) throws -> any HTTPResponder = { _ in EchoResponder() }
    ) throws -> (status: Int32, answer: HTTPResult?, logged: [String]) {
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        guard pipe(&input) == 0, pipe(&output) == 0 else { throw SocketError("pipe failed") }
        defer { for descriptor in [input[0], output[0]] { close(descriptor) } }
        _ = stdin.withUnsafeBytes { write(input[1], $0.baseAddress, $0.count) }
        close(input[1])  // a CGI server need not close stdin; this one does, to show what is read
        var logged: [String] = []
        let status = CGIExchange.respondOnce(
            environment: environment, input: input[0], output: output[1], bodyLimit: bodyLimit,
            log: { logged.append($0) }, makeResponder: makeResponder)
        close(output[1])
        let written = FileHandle(fileDescriptor: output[0], closeOnDealloc: false).readDataToEndOfFile()
        return (status, written.isEmpty ? nil : try HTTPResult(parsing: Array(written)), logged)
    }

    let apache = [
        "GATEWAY_INTERFACE": "CGI/1.1", "REQUEST_METHOD": "POST", "SCRIPT_NAME": "/wakeup", "PATH_INFO": "/unregister",
        "CONTENT_TYPE": "application/json", "QUERY_STRING": "status=202",
    ]

    @Test func oneRequestFromTheEnvironmentAndStdinIsAnsweredOnStdout() throws {
        var environment = apache
        environment["CONTENT_LENGTH"] = "5"
        let (status, answer, logged) = try exchange(environment, stdin: Array("hello, and what follows".utf8))
        let result = try #require(answer)
        #expect(status == 0 && logged.isEmpty)
        #expect(result.status == 202 && result.header("X-Echo") == "yes")
        let fields = EchoResponder.fields(result.text)
        #expect(fields["path"] == "/wakeup/unregister" && fields["method"] == "POST")
        // RFC 3875 4.2: exactly CONTENT_LENGTH bytes are the body.
        #expect(fields["bodyCount"] == "5" && fields["bodySum"] == String(Array("hello".utf8).reduce(0) { $0 + Int($1) }))
    }

    @Test func aDeclaredLengthOverTheLimitIsFlaggedWithoutReadingIt() throws {
        var environment = apache
        environment["CONTENT_LENGTH"] = "101"
        let result = try #require(try exchange(environment, stdin: Array(repeating: 1, count: 101)).answer)
        let fields = EchoResponder.fields(result.text)
        #expect(fields["tooLarge"] == "true" && fields["bodyCount"] == "0")
    }

    @Test func withoutContentLengthNoBodyIsRead() throws {
        let result = try #require(try exchange(apache, stdin: [1, 2, 3]).answer)
        #expect(EchoResponder.fields(result.text)["bodyCount"] == "0")
    }

    @Test func aResponderThatCannotBeMadeIsExitOneAndOneLine() throws {
        struct Refused: Error, CustomStringConvertible { var description: String { "no database" } }
        let (status, answer, logged) = try exchange(apache) { _ in throw Refused() }
        #expect(status == 1 && answer == nil)
        #expect(logged == ["cannot answer the CGI request: no database"])
    }
}
