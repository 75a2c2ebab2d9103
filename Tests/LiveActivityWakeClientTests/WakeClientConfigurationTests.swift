import Foundation
import LiveActivityWakeClient
import Testing

/// Where the client sends, which environment it names, and when it retries.
@Suite struct WakeClientConfigurationTests {
    @Test(arguments: [
        ("https://wakeup.example.org", "", "https://wakeup.example.org/wakeup/ack"),
        ("https://wakeup.example.org/", "/prod", "https://wakeup.example.org/prod/wakeup/ack"),
        ("https://example.org/api/", "prod/", "https://example.org/api/prod/wakeup/ack"),
        ("http://127.0.0.1:8080", "/dev", "http://127.0.0.1:8080/dev/wakeup/ack"),
    ])
    func theRouteIsTheBaseThePrefixAndThePath(_ base: String, _ prefix: String, _ expected: String) throws {
        let client = WakeClient(baseURL: try #require(URL(string: base)), pathPrefix: prefix)
        #expect(client.url(for: "/wakeup/ack").absoluteString == expected)
    }

    @Test func theBuildChoosesTheEnvironmentUnlessTold() {
        #if DEBUG
            #expect(WakeEnvironment.fromBuild.wireValue == "sandbox")
        #else
            #expect(WakeEnvironment.fromBuild.wireValue == "production")
        #endif
        #expect(WakeEnvironment.sandbox.wireValue == "sandbox")
        #expect(WakeEnvironment.production.wireValue == "production")
        #expect(WakeEnvironment.backendChooses.wireValue == nil)
        #expect(WakeClient(baseURL: URL(fileURLWithPath: "/")).environment == .fromBuild)
    }

    @Test func errorsSayWhetherALaterTryMaySucceed() {
        #expect(WakeClientError.unavailable(reason: nil, retryAfter: 5, attempts: 3).isTemporary)
        #expect(WakeClientError.rateLimited(retryAfter: 60, attempts: 1).isTemporary)
        #expect(!WakeClientError.badRequest(reason: "x", supported: nil).isTemporary)
        #expect(!WakeClientError.notFound.isTemporary)
    }
}
