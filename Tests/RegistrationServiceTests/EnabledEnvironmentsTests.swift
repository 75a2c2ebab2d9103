import FastCGIWire
import Foundation
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore
@testable import RegistrationService

/// APNS_ENVIRONMENTS at the API (SPEC 3, 6), and an unregistration that ignores all but its token.
@Suite struct EnabledEnvironmentsTests {
    let database: TestDatabase

    /// The suite's state on `engine`, made afresh by each test case (the engine is its argument).
    init(_ engine: TestEngine) throws { database = try TestDatabase(engine, label: "api-environments") }

    func api(_ enabled: [APNsEnvironment]) -> RegistrationAPI {
        var configuration = Configuration()
        configuration.enabledEnvironments = enabled
        return RegistrationAPI(database: database, configuration: configuration)
    }

    func post(_ api: RegistrationAPI, _ body: String, path: String = "/wakeup", location: String? = nil) -> HTTPResponse {
        api.respond(
            to: HTTPRequest(
                method: "POST", path: path, contentType: "application/json", body: Array(body.utf8),
                parameters: RequestParameters(location.map { ["LIVEACTIVITY_APNS_ENVIRONMENT": $0] } ?? [:])))
    }

    func stored() throws -> [(token: String, environment: APNsEnvironment)] {
        try database.reading { _ in }  // migrated, as the responder leaves it
        return try database.rows(
            "SELECT registration_token, environment FROM push_targets WHERE push_kind = 'wake' ORDER BY registration_token"
        ).map {
            ($0[0] ?? "", APNsEnvironment(name: $0[1] ?? "") ?? .production)
        }
    }

    /// A known environment the operator did not enable is refused with the enabled ones and the
    /// setting that enables it (issue 50: the development build's first registration meets it);
    /// an unknown name, which no setting enables, with the enabled ones alone.
    @Test(arguments: TestEngine.real) static func anEnvironmentTheOperatorDidNotEnableIsRefusedWithTheEnabledOnes(
        engine: TestEngine
    ) throws {
        let fixture = try Self(engine)
        let productionOnly = fixture.api([.production])
        let refused =
            #"{"error":"Unsupported environment: sandbox (the backend's APNS_ENVIRONMENTS does not enable it)","supported":["production"]}"#
        for name in ["sandbox", "development"] {
            let response = fixture.post(productionOnly, #"{"pushToken":"\#(sampleToken(1))","environment":"\#(name)"}"#)
            #expect(response.status == 400)
            #expect(response.bodyText == refused.replacingOccurrences(of: ": sandbox", with: ": \(name)"))
        }
        let fromLocation = fixture.post(
            productionOnly, #"{"pushToken":"\#(sampleToken(1))"}"#, path: "/dev/wakeup", location: "sandbox")
        #expect(fromLocation.status == 400 && fromLocation.bodyText == refused, "an nginx location of a disabled environment")
        #expect(
            fixture.post(productionOnly, #"{"pushToken":"\#(sampleToken(1))","environment":"staging"}"#).bodyText
                == #"{"error":"Unsupported environment: staging","supported":["production"]}"#)
        #expect(try fixture.stored().isEmpty, "nothing written for a refused registration")

        #expect(fixture.post(productionOnly, #"{"pushToken":"\#(sampleToken(2))","environment":"production"}"#).status == 200)
        #expect(fixture.post(productionOnly, #"{"pushToken":"\#(sampleToken(3))"}"#).status == 200, "the default is enabled")
        #expect(try fixture.stored().map(\.environment) == [.production, .production])
    }

    @Test(arguments: TestEngine.real)
    static func bothEnvironmentsAreEnabledByDefault(engine: TestEngine) throws {
        let fixture = try Self(engine)
        let both = fixture.api(APNsEnvironment.allCases)
        #expect(fixture.post(both, #"{"pushToken":"\#(sampleToken(1))","environment":"sandbox"}"#).status == 200)
        #expect(
            fixture.post(both, #"{"pushToken":"\#(sampleToken(2))","environment":"staging"}"#).bodyText
                == #"{"error":"Unsupported environment: staging","supported":["production","sandbox"]}"#)
    }

    @Test(
        arguments: TestEngine.real,
        [
            #""activityType":"parking""#, #""activityType":7"#, #""environment":{}"#, #""environment":"staging""#,
            #""environment":"sandbox""#, #""extra":[1,{"a":null}]"#, #""pushToken2":false"#,
        ])
    static func unregisterIgnoresEveryFieldButThePushToken(engine: TestEngine, extra: String) throws {
        let fixture = try Self(engine)
        let productionOnly = fixture.api([.production])
        #expect(fixture.post(productionOnly, #"{"pushToken":"\#(sampleToken(1))"}"#).status == 200)
        let response = fixture.post(productionOnly, #"{"pushToken":"\#(sampleToken(1))",\#(extra)}"#, path: "/wakeup/unregister")
        #expect(response.status == 200 && response.bodyText == #"{"success":true}"#)
        #expect(try fixture.stored().isEmpty)
    }
}
