import FastCGIWire
import LiveActivityDomain
import LiveActivityFigures
import RegistrationService
import TestSupport
import Testing

/// The metrics route of the API (the figures themselves: LiveActivityFiguresTests).
@Suite struct MetricsRouteTests {
    let now: Int64 = 1_800_000_000_000

    @Test(arguments: TestEngine.real)
    func theMetricsRouteAnswersGetOnly(engine: TestEngine) throws {
        let database = try populateStatsFigures(TestDatabase(engine, label: "metrics"), now: now)
        let api = RegistrationAPI(database: database)
        let response = api.respond(to: HTTPRequest(method: "GET", path: "/wakeup/metrics"))
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == PrometheusMetrics.contentType)
        #expect(response.bodyText.contains("liveactivity_sweep_runs_total 2"))
        #expect(api.respond(to: HTTPRequest(method: "POST", path: "/wakeup/metrics")).status == 405)
    }
}
