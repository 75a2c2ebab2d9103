import LiveActivityDomain
import LiveActivityStore
import Testing

@testable import RegistrationService

@Suite struct FaultLogTests {
    @Test func aLastingFaultIsOneLineAMinuteWithTheCountOfWhatWasNotSaid() {
        let faults = FaultLog(repeatSeconds: 60)
        #expect(faults.failed(cause: "disk full", line: "full", now: 0) == "full")
        #expect(faults.failed(cause: "disk full", line: "full", now: 1_000) == nil)
        #expect(faults.failed(cause: "disk full", line: "full", now: 59_999) == nil)
        #expect(faults.failed(cause: "disk full", line: "full", now: 60_000) == "full (and 2 more since the last line)")
    }

    @Test func anotherCauseIsSaidAtOnce() {
        let faults = FaultLog()
        #expect(faults.failed(cause: "disk full", line: "full", now: 0) == "full")
        #expect(faults.failed(cause: "read-only", line: "read-only", now: 1) == "read-only")
    }

    @Test func theAllClearIsSaidOnceAfterAFaultAndNotAgainWithinTheMinute() {
        let faults = FaultLog()
        #expect(faults.succeeded(now: 0) == nil, "no fault, nothing to clear")
        _ = faults.failed(cause: "disk full", line: "full", now: 0)
        _ = faults.failed(cause: "disk full", line: "full", now: 1)
        #expect(faults.succeeded(now: 2) == "database usable again after disk full: 2 requests failed meanwhile")
        #expect(faults.succeeded(now: 3) == nil)
        // A nearly full disk flips between the two: neither is repeated within the minute.
        #expect(faults.failed(cause: "disk full", line: "full", now: 4) == nil)
        #expect(faults.succeeded(now: 5) == nil)
    }

    @Test func aReplacedFileIsReportedOnceByAllWorkers() {
        let faults = FaultLog()
        #expect(faults.firstReport(ofStale: "64768:1234"))
        #expect(!faults.firstReport(ofStale: "64768:1234"))
        #expect(faults.firstReport(ofStale: "64768:5678"), "another file is another line")
    }
}
