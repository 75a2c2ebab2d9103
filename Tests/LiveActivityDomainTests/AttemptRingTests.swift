import TestSupport
import Testing

@testable import LiveActivityDomain

/// The attempt history's bytes on the registration row (`AttemptRing`): what goes in comes back,
/// newest first, at most 20; damaged bytes never trap.
@Suite struct AttemptRingTests {
    let token = PushToken(trusted: sampleToken(1))

    func attempt(_ at: Int64, status: Int?, reason: String? = nil, id: String?, delay: Int64? = nil) -> PushAttempt {
        PushAttempt(
            token: token, sentAt: at - 25, answeredAt: at, status: status, reason: reason, apnsID: id,
            ackedAt: delay.map { at + $0 }, ackDelayMilliseconds: delay)
    }

    @Test func everyFieldComesBack() {
        let attempts = [
            attempt(1_800_000_000_500, status: 200, id: "5d3b0e62-1c4a-4f44-9b2e-6b2b1e0a7c11", delay: 1234),
            attempt(1_800_000_000_400, status: 200, id: "5D3B0E62-1C4A-4F44-9B2E-6B2B1E0A7C11"),
            attempt(1_800_000_000_300, status: 503, reason: "ServiceUnavailable", id: "not-a-uuid"),
            attempt(1_800_000_000_200, status: nil, reason: "CURLE_OPERATION_TIMEDOUT", id: nil),
        ]
        let bytes = AttemptRing.encode(attempts)
        #expect(AttemptRing.decode(bytes, token: token) == attempts)
        #expect(AttemptRing.encode([attempts[0]]).count == 36, "a 200 with its UUID")
    }

    @Test func prependingKeepsTheNewestTwenty() {
        var ring: [UInt8]?
        for index in 0..<30 {
            ring = AttemptRing.prepending(attempt(Int64(index) * 1000, status: index % 4 == 0 ? 500 : 200, id: nil), to: ring)
        }
        let kept = AttemptRing.decode(ring ?? [], token: token)
        #expect(kept.count == 20)
        #expect(kept.map(\.answeredAt) == (10..<30).reversed().map { Int64($0) * 1000 })
    }

    /// An answer time at the edge of Int64 (a planted row): the entry is left out, the others
    /// come back, nothing traps computing its send or ack time.
    @Test func anEntryWhoseTimesOverflowIsLeftOut() {
        let kept = attempt(1_800_000_000_500, status: 200, id: nil)
        // After the answer time: sent before (UInt32), status (UInt16), the ack's delay (UInt32,
        // all ones for none), no apns-id, no reason. Sent 1 ms before -2^63; acked 10 ms after 2^63 - 1.
        let rests: [(Int64, [UInt8])] = [
            (.min, [1, 0, 0, 0, 200, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0]), (.max, [0, 0, 0, 0, 200, 0, 10, 0, 0, 0, 0, 0]),
        ]
        for (answeredAt, rest) in rests {
            let entry = withUnsafeBytes(of: answeredAt.littleEndian, Array.init) + rest
            #expect(AttemptRing.decode(entry + AttemptRing.encode([kept]), token: token) == [kept], "\(answeredAt)")
        }
    }

    @Test func damagedBytesDecodeToTheWholeEntriesBeforeTheDamage() {
        let bytes = AttemptRing.encode([
            attempt(2000, status: 200, id: "5d3b0e62-1c4a-4f44-9b2e-6b2b1e0a7c11"),
            attempt(1000, status: 410, reason: "Unregistered", id: nil),
        ])
        for cut in 0..<bytes.count {
            let decoded = AttemptRing.decode(Array(bytes.prefix(cut)), token: token)
            #expect(decoded.count == (cut >= 36 ? 1 : 0), "cut at \(cut)")
        }
        var garbage = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let noise = (0..<Int.random(in: 0..<300, using: &garbage)).map { _ in UInt8.random(in: 0...255, using: &garbage) }
            _ = AttemptRing.decode(noise, token: token)
            _ = AttemptRing.prepending(attempt(1, status: 200, id: nil), to: noise)
        }
    }
}
