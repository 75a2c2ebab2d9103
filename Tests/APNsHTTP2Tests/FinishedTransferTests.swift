import Testing

@testable import APNsHTTP2

/// What a finished transfer comes to, for each way libcurl 7.88 was seen to end one against nginx
/// (the HTTP/2 fault experiments of issue #9): decided by status and a complete body, not by the
/// result code alone.
@Suite struct FinishedTransferTests {
    let ok = CurlCode(rawValue: 0)

    func verdict(
        _ result: CurlCode, status: Int = 0, version: Int = 3, sent: Int = 253, body: Int = 0, length: Int? = nil,
        resent: Bool = false
    ) -> FinishedTransfer.Verdict {
        FinishedTransfer(
            result: result, status: status, httpVersion: version, requestBytes: sent, bodyBytes: body,
            contentLength: length, wasResent: resent
        ).verdict { APNsResponse(status: status) }
    }

    @Test func aPlainAnswerIsThatAnswer() {
        #expect(verdict(ok, status: 200) == .answer(.answered(APNsResponse(status: 200)), afterError: false))
        #expect(
            verdict(ok, status: 400, body: 27, length: 27) == .answer(.answered(APNsResponse(status: 400)), afterError: false))
    }

    @Test(arguments: [CurlCode.http2Stream, .partialFile, .http2])
    func aCompleteAnswerFollowedByAResetIsThatAnswer(code: CurlCode) {
        #expect(verdict(code, status: 200) == .answer(.answered(APNsResponse(status: 200)), afterError: true))
        #expect(
            verdict(code, status: 410, body: 60, length: 60) == .answer(.answered(APNsResponse(status: 410)), afterError: true))
    }

    @Test func aBodyCutShortIsNoAnswer() {
        // 18 with status 400: "transfer closed with 27 bytes remaining".
        #expect(verdict(.partialFile, status: 400, body: 0, length: 27) == .resend)
        #expect(
            verdict(.partialFile, status: 400, body: 0, length: 27, resent: true)
                == .answer(.failed(.partialFile), afterError: false))
        #expect(verdict(.http2Stream, status: 400, body: 5) == .resend, "no length, an error body: not provably whole")
    }

    @Test(arguments: [CurlCode.http2, .partialFile, .sendError, .receiveError, .http2Stream])
    func aStreamThatDiedWithoutAnAnswerIsSentOnceMore(code: CurlCode) {
        #expect(verdict(code) == .resend)
        #expect(verdict(code, sent: 0) == .resend, "a refused stream may not have left either")
        #expect(verdict(code, resent: true) == .answer(.failed(code), afterError: false))
    }

    @Test(arguments: [
        CurlCode.couldNotConnect, .couldNotResolveHost, .sslConnectError, .peerFailedVerification, .badCAFile,
    ])
    func aConnectionThatCouldNotBeMadeIsUnreachable(code: CurlCode) {
        #expect(verdict(code, sent: 0) == .answer(.unreachable(code), afterError: false))
    }

    @Test func aTimeoutBeforeTheRequestLeftIsUnreachableAfterItIsAFailure() {
        #expect(verdict(.operationTimedOut, sent: 0) == .answer(.unreachable(.operationTimedOut), afterError: false))
        #expect(verdict(.operationTimedOut, sent: 253) == .answer(.failed(.operationTimedOut), afterError: false))
        #expect(verdict(.operationTimedOut, sent: 253).isTimeoutAnswer)
    }

    @Test func anAnswerWithoutHTTP2IsNotAPNs() {
        #expect(verdict(ok, status: 200, version: 2) == .answer(.notHTTP2, afterError: false))
    }

    @Test func nothingAtAllIsGotNothing() {
        #expect(verdict(ok, status: 0) == .answer(.failed(.gotNothing), afterError: false))
    }
}

extension FinishedTransfer.Verdict {
    var isTimeoutAnswer: Bool {
        if case .answer(let answer, _) = self { return answer.isTimeout }
        return false
    }
}
