import Glibc

/// Plain CGI (RFC 3875): one request from the environment and stdin, the response on stdout,
/// for a CGI server such as Apache's `ScriptAlias` (SPEC section 2).
enum CGIExchange {
    /// Answers the one request `environment` and `input` carry, on `output`; the exit status is 0
    /// unless the responder could not be made.
    static func respondOnce(
        environment: [String: String], input: Int32 = 0, output: Int32 = 1,
        bodyLimit: Int, log: (String) -> Void, makeResponder: (Int) throws -> any HTTPResponder
    ) -> Int32 {
        let parameters = RequestParameters(environment)
        // RFC 3875 4.2: the server need not close stdin, so read CONTENT_LENGTH bytes, no more.
        let body = RequestBodyReader(limit: bodyLimit).read(declaredLength: parameters.contentLength, untilEndOfStream: false) {
            buffer, count in
            while true {
                let got = read(input, buffer, Int(count))
                if got < 0 && errno == EINTR { continue }
                return Int32(max(got, 0))
            }
        }
        let responder: any HTTPResponder
        do {
            responder = try makeResponder(0)
        } catch {
            log("cannot answer the CGI request: \(error)")
            return 1
        }
        let response = responder.respond(
            to: HTTPRequest(parameters: parameters, body: body.bytes, bodyTooLarge: body.tooLarge, gateway: .cgi))
        writeAll(response.cgiBytes(), to: output)
        return 0
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}
