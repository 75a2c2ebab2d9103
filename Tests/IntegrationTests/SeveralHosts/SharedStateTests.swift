import Foundation
import LiveActivityDomain
import TestSupport
import Testing

/// What one host learns, every host knows (SPEC 5, "Several hosts"): the guard's "ever delivered"
/// history and a row's back-off are the database's, so the next host judges alike.
@Suite("Several hosts share what they learn")
struct SharedStateTests {
    @Test func anotherHostsDeliveryLetsThisHostDeleteJunkTokens() throws {
        let hosts = try SweepingHosts()
        // host-a delivers once in production: the environment has now delivered, for every host.
        try hosts.fixture.register([1])
        #expect(SweepingHosts.sent(try hosts.sweep("host-a").stdout) == 1)
        // Then 12 junk tokens, each answered BadDeviceToken, swept by host-b. Had host-b only its
        // own history (no 200 ever), the guard would hold them as a fresh deployment's fault.
        let junk = Array(101...112)
        try hosts.fixture.register(junk)
        try hosts.standIn.state().script(tokens: junk.map(sampleToken), status: 400, reason: "BadDeviceToken")
        let other = try hosts.sweep("host-b")
        #expect(other.status == 0, "no fault: \(other.stdout)\(other.stderr)")
        #expect(SweepFixture.field("removed", in: other.stdout) == "12", "\(other.stdout)")
        #expect(try hosts.database.count() == 1)
    }

    @Test func aRowOneHostBackedOffWaitsForEveryHost() throws {
        let hosts = try SweepingHosts()
        try hosts.fixture.register([1, 2])
        try hosts.standIn.state().script(token: sampleToken(1), status: 503, reason: "ServiceUnavailable")
        let first = try hosts.sweep("host-a")
        #expect(first.status == 0 && SweepFixture.field("failed", in: first.stdout) == "1", "\(first.stdout)")
        // The failed row waits its back-off for host-b too; nothing else is due.
        let other = try hosts.sweep("host-b")
        #expect(SweepingHosts.sent(other.stdout) == 0 && SweepFixture.field("failed", in: other.stdout) == "0", "\(other.stdout)")
        #expect(try hosts.standIn.state().received(token: sampleToken(1)).count == 1)
        let row = try #require(try hosts.fixture.row(1))
        #expect(row.consecutiveFailures == 1 && row.lastError == "ServiceUnavailable")
    }
}
