import LiveActivityDomain
import Testing

@testable import RegistrationService

/// The route table and the environment rule, as values (SPEC 3).
@Suite struct RouteAndEnvironmentChoiceTests {
    @Test func aPathIsRoutedByItsEndUnderAnyPrefix() {
        let cases: [(String, Route?)] = [
            ("/wakeup", .register), ("/dev/wakeup", .register), ("/prod/wakeup/unregister", .unregister),
            ("/wakeup/ack", .ack), ("/x/wakeup/health", .health), ("/wakeup/metrics", .metrics),
            ("/wakeup/status", .status), ("/wakeup/ack/wakeup", .register), ("/wakeup/", nil), ("/wakeups", nil), ("", nil),
        ]
        for (path, route) in cases { #expect(Route.matching(path) == route, "\(path)") }
    }

    @Test func theAppsRoutesTakePostAndTheMonitoringOnesGetAndHead() {
        for route in [Route.register, .unregister, .ack] {
            #expect(route.accepts("POST") && !route.accepts("GET") && route.allow == "POST" && !route.isMonitoring)
        }
        for route in [Route.health, .metrics, .status] {
            #expect(route.accepts("GET") && route.accepts("HEAD") && !route.accepts("POST") && route.isMonitoring)
        }
        #expect(Route.status.allow == "GET, HEAD" && Route.health.allow == "GET")
    }

    @Test func theBodyThenTheLocationThenTheDefaultDecide() throws {
        let choice = EnvironmentChoice(enabled: [.production, .sandbox], defaultEnvironment: .production)
        #expect(try choice.choose(body: .production, parameter: "sandbox") == .production)
        #expect(try choice.choose(body: nil, parameter: "development") == .sandbox)
        #expect(try choice.choose(body: nil, parameter: "") == .production)
        #expect(try choice.choose(body: nil, parameter: nil) == .production)
        #expect(throws: EnvironmentChoice.Refusal.badParameter("staging")) { try choice.choose(body: nil, parameter: "staging") }
    }

    @Test func bothHalvesRefuseAnEnvironmentTheOperatorDidNotEnableAlike() throws {
        let choice = EnvironmentChoice(enabled: [.production], defaultEnvironment: .production)
        let refused = APIError.unsupported(
            "Unsupported environment: sandbox (the backend's APNS_ENVIRONMENTS does not enable it)", supported: ["production"])
        #expect(throws: refused) { try choice.named(inBody: "sandbox") }
        #expect(throws: EnvironmentChoice.Refusal.unsupported(refused)) { try choice.choose(body: nil, parameter: "sandbox") }
        #expect(try choice.named(inBody: "PRODUCTION") == .production)
    }
}
