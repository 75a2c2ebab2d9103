import LiveActivityDomain
import Testing

/// The sweep's one deadline: made from the budget, moved by a stop, read by the APNs client.
@Suite struct DeadlineTests {
    let origin = ContinuousClock.now

    @Test func inFlightPushesGetTheDrainAfterSendingStops() {
        let deadline = Deadline(sendUntil: origin + .seconds(50), drain: .seconds(5))
        #expect(deadline.finishBy == origin + .seconds(55))
        #expect(!deadline.stopsSending(at: origin + .seconds(49)) && deadline.stopsSending(at: origin + .seconds(50)))
        #expect(deadline.millisecondsLeft(at: origin + .seconds(54)) == 1000)
        #expect(deadline.millisecondsLeft(at: origin + .seconds(56)) <= 0)
    }

    @Test func aStopMovesBothEndsForwardButNeverLater() {
        var deadline = Deadline(sendUntil: origin + .seconds(50), drain: .seconds(5))
        deadline.stop(at: origin + .seconds(10))
        #expect(deadline.sendUntil == origin + .seconds(10) && deadline.finishBy == origin + .seconds(15))
        var late = Deadline(sendUntil: origin + .seconds(50), drain: .seconds(5))
        late.stop(at: origin + .seconds(53))
        #expect(late.sendUntil == origin + .seconds(50) && late.finishBy == origin + .seconds(55), "never extended")
    }
}
