import Foundation
import Testing

@testable import FastCGIWire

@Suite struct HTTPRequestParametersTests {
    func request(_ values: [String: String], body: [UInt8] = [], tooLarge: Bool = false) -> HTTPRequest {
        HTTPRequest(parameters: RequestParameters(values), body: body, bodyTooLarge: tooLarge, gateway: .fastCGI)
    }

    @Test func nginxRoutesOnDocumentURI() {
        let parameters = ["DOCUMENT_URI": "/dev/wakeup", "REQUEST_URI": "/other?x=1", "SCRIPT_NAME": "/cgi"]
        #expect(request(parameters).path == "/dev/wakeup")
    }

    @Test func requestURILosesItsQuery() {
        #expect(request(["REQUEST_URI": "/wakeup/health?verbose=1"]).path == "/wakeup/health")
        #expect(request(["DOCUMENT_URI": "", "REQUEST_URI": "/wakeup"]).path == "/wakeup")
    }

    @Test func aCGIServerRoutesOnScriptNameAndPathInfo() {
        #expect(request(["SCRIPT_NAME": "/cgi-bin/liveactivity", "PATH_INFO": "/wakeup"]).path == "/cgi-bin/liveactivity/wakeup")
        #expect(request([:]).path == "")
    }

    @Test func methodContentTypeBodyAndEveryParameterCarryOver() {
        let made = request(
            [
                "REQUEST_METHOD": "POST", "CONTENT_TYPE": "application/json", "DOCUMENT_URI": "/wakeup",
                "LIVEACTIVITY_APNS_ENVIRONMENT": "sandbox",
            ], body: [1, 2], tooLarge: true)
        #expect(made.method == "POST" && made.contentType == "application/json")
        #expect(made.body == [1, 2] && made.bodyTooLarge)
        #expect(made.parameters["LIVEACTIVITY_APNS_ENVIRONMENT"] == "sandbox")
        #expect(made.parameters.values.count == 4)
    }

    @Test func aMissingMethodIsGetAndAnEmptyContentTypeIsAbsent() {
        let made = request(["CONTENT_TYPE": ""])
        #expect(made.method == "GET" && made.contentType == nil && made.parameters["CONTENT_TYPE"] == "")
    }

    @Test func contentLengthCountsOnlyWhenItIsANumber() {
        #expect(RequestParameters(["CONTENT_LENGTH": "12"]).contentLength == 12)
        #expect(RequestParameters(["CONTENT_LENGTH": ""]).contentLength == nil)
        #expect(RequestParameters(["CONTENT_LENGTH": "-1"]).contentLength == nil)
        #expect(RequestParameters(["CONTENT_LENGTH": "12abc"]).contentLength == nil)
        #expect(RequestParameters([:]).contentLength == nil)
    }

    @Test func anEnvironArrayIsSplitAtTheFirstEquals() {
        let texts = ["A=1", "B=x=y", "NOEQUALS", "EMPTY="]
        let entries: [UnsafeMutablePointer<CChar>?] = texts.map { text in strdup(text) }
        defer { for entry in entries { free(entry) } }
        var array = entries + [nil]
        let parameters = array.withUnsafeMutableBufferPointer { RequestParameters(environ: $0.baseAddress) }
        #expect(parameters.values == ["A": "1", "B": "x=y", "EMPTY": ""])
        #expect(parameters["B"] == "x=y" && parameters["EMPTY"] == "" && parameters["NOEQUALS"] == nil)
    }

    @Test func aNameMatchesWholeAndTheLastOfTwiceGivenWins() {
        let texts = ["CONTENT_TYPE=application/json", "CONTENT_LENGTH=12", "X=first", "X=second"]
        let entries: [UnsafeMutablePointer<CChar>?] = texts.map { text in strdup(text) }
        defer { for entry in entries { free(entry) } }
        var array = entries + [nil]
        let parameters = array.withUnsafeMutableBufferPointer { RequestParameters(environ: $0.baseAddress) }
        #expect(parameters["CONTENT_TYPE"] == "application/json" && parameters["CONTENT_LENGTH"] == "12")
        #expect(parameters["CONTENT"] == nil && parameters["CONTENT_TYPE_X"] == nil && parameters[""] == nil)
        #expect(parameters["X"] == "second" && parameters.values["X"] == "second")
        #expect(RequestParameters([:])["X"] == nil && RequestParameters([:]).values.isEmpty)
    }
}
