import FastCGIWire
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import RegistrationService

/// SPEC section 3's error table (`ErrorRow.all`, shared with the run through nginx) against the
/// API itself, each request made from the parameters nginx would send.
@Suite struct ErrorTableTests {
    @Test(arguments: TestEngine.real, ErrorRow.all)
    func aBadRequestIsAnsweredWithItsStatusAndChangesNothing(engine: TestEngine, _ row: ErrorRow) throws {
        let database = try TestDatabase(engine, label: "table")
        let api = RegistrationAPI(database: database)
        // The seed with a widgets target too: a row wrongly accepted would refresh it without one.
        let seed = HTTPRequest(
            method: "POST", path: "/wakeup", body: Array(registerBody(ErrorRow.seedToken, widget: testToken(31)).utf8))
        #expect(api.respond(to: seed).status == 200)
        let before = try storedRows(database)

        let response = api.respond(
            to: HTTPRequest(parameters: RequestParameters(row.parameters), body: Array((row.body ?? "").utf8), gateway: .cgi))

        #expect(response.status == row.status)
        #expect(response.bodyText == row.expectedBody)
        for (name, value) in ErrorRow.expectedHeaders { #expect(response.header(name) == value, "\(name)") }
        #expect(response.header("Allow") == row.allow)
        #expect(try storedRows(database) == before)
        #expect(before.count == 2, "the seed's wake and widgets targets")
    }
}
