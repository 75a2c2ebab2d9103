import APNsHTTP2
import LiveActivityCore
import LiveActivitySweep
import Testing

@Suite struct APNsClientOptionsConfigurationTests {
    @Test func configurationSettingsCarryOver() throws {
        let configuration = try Configuration(environment: [
            "APNS_HOST": "https://127.0.0.1:9443", "APNS_CA_FILE": "/tmp/ca.pem", "LIVEACTIVITY_APNS_CONCURRENCY": "50",
        ])
        let options = APNsClientOptions(configuration: configuration, environment: .production, topic: "b.id")
        #expect(options.baseURL == "https://127.0.0.1:9443")
        #expect(options.caFile == "/tmp/ca.pem")
        #expect(options.maxInFlight == 50)
        #expect(options.topic == "b.id")
        #expect(options.connectTimeout == 10 && options.requestTimeout == 30 && options.maxConnections == 1)
    }
}
