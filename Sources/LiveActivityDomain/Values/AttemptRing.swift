/// A registration's last attempts as the bytes stored on its own row (SPEC 4: the last 20,
/// deleted with the registration). On the row, not in a table of their own: the sweep already
/// rewrites the row's page for every answer, so keeping the history there adds no page to a
/// batch (a table keyed by token added one random page per push, and made a 100,000-push sweep
/// a third slower); and the row going takes its history with it.
///
/// Newest first; each entry: answered at (Int64 ms), sent before that (UInt32 ms), status
/// (UInt16, 0 for none), ack delay (UInt32 ms, all ones for none), the `apns-id` (a tag byte: 0
/// none, 1 a lowercase UUID, 2 an uppercase one, then 16 bytes; 3 other text, then its length
/// and bytes), and the reason (its length, then its bytes). A 200 with its UUID takes 36 bytes,
/// so 20 of them stay well inside a row's own page.
public enum AttemptRing {
    private static let noAck = UInt32.max

    /// `attempt` put first in `ring` (stored bytes, nil for none), the oldest beyond 20 dropped.
    public static func prepending(_ attempt: PushAttempt, to ring: [UInt8]?) -> [UInt8] {
        prepending(entry: entry(attempt), to: ring)
    }

    /// The bytes of one entry, for `prepending(entry:to:)`.
    public static func entry(_ attempt: PushAttempt) -> [UInt8] {
        var out: [UInt8] = []
        append(attempt, to: &out)
        return out
    }

    /// One entry's bytes (from `entry(_:)`) put first in `ring`, the oldest beyond 20 dropped.
    public static func prepending<Entry: Collection<UInt8>>(entry: Entry, to ring: [UInt8]?) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity((ring?.count ?? 0) + entry.count)
        out += entry
        var kept = 1
        forEachEntry(ring ?? []) { range in
            guard kept < PushAttempt.kept else { return false }
            out += (ring ?? [])[range]
            kept += 1
            return true
        }
        return out
    }

    /// The attempts in `ring`, newest first; a damaged tail is left out.
    public static func decode(_ ring: [UInt8], token: PushToken) -> [PushAttempt] {
        var attempts: [PushAttempt] = []
        forEachEntry(ring) { range in
            if let attempt = entry(ring[range], token: token) { attempts.append(attempt) }
            return true
        }
        return attempts
    }

    /// The bytes of `attempts` (newest first), the first 20 of them. An entry keeps its ack as a
    /// delay: `ackedAt` is read back as its answer time plus that delay.
    public static func encode(_ attempts: [PushAttempt]) -> [UInt8] {
        var out: [UInt8] = []
        for attempt in attempts.prefix(PushAttempt.kept) { append(attempt, to: &out) }
        return out
    }

    // MARK: - Bytes

    private static func append(_ attempt: PushAttempt, to out: inout [UInt8]) {
        put(UInt64(bitPattern: attempt.answeredAt), bytes: 8, into: &out)
        put(UInt64(min(max(0, attempt.answeredAt - attempt.sentAt), Int64(UInt32.max))), bytes: 4, into: &out)
        put(UInt64(min(max(0, attempt.status ?? 0), Int(UInt16.max))), bytes: 2, into: &out)
        let delay = attempt.ackDelayMilliseconds.map { UInt32(min(max(0, $0), Int64(noAck - 1))) } ?? noAck
        put(UInt64(delay), bytes: 4, into: &out)
        if let id = attempt.apnsID {
            if let (bytes, upper) = uuid(id) {
                out.append(upper ? 2 : 1)
                out += bytes
            } else {
                let text = Array(id.utf8.prefix(64))
                out += [3, UInt8(text.count)] + text
            }
        } else {
            out.append(0)
        }
        let reason = Array((attempt.reason ?? "").utf8.prefix(64))
        out.append(UInt8(reason.count))
        out += reason
    }

    /// Calls `body` with the byte range of each whole entry in order, until it returns false.
    private static func forEachEntry(_ ring: [UInt8], _ body: (Range<Int>) -> Bool) {
        var index = 0
        while index < ring.count {
            let start = index
            index += 18
            guard index < ring.count else { return }
            switch ring[index] {
            case 0: index += 1
            case 1, 2: index += 17
            case 3:
                guard index + 1 < ring.count else { return }
                index += 2 + Int(ring[index + 1])
            default: return
            }
            guard index < ring.count else { return }
            index += 1 + Int(ring[index])
            guard index <= ring.count, body(start..<index) else { return }
        }
    }

    private static func entry(_ bytes: ArraySlice<UInt8>, token: PushToken) -> PushAttempt? {
        let base = bytes.startIndex
        func read(_ offset: Int, _ count: Int) -> UInt64 {
            (0..<count).reduce(UInt64(0)) { $0 | UInt64(bytes[base + offset + $1]) << (8 * UInt64($1)) }
        }
        let answeredAt = Int64(bitPattern: read(0, 8))
        let sentBefore = Int64(read(8, 4))
        let status = Int(read(12, 2))
        let delay = UInt32(read(14, 4))
        var index = base + 18
        var apnsID: String?
        switch bytes[index] {
        case 1, 2:
            apnsID = uuidText(Array(bytes[(index + 1)..<(index + 17)]), upper: bytes[index] == 2)
            index += 17
        case 3:
            let count = Int(bytes[index + 1])
            apnsID = String(decoding: bytes[(index + 2)..<(index + 2 + count)], as: UTF8.self)
            index += 2 + count
        default: index += 1
        }
        let reasonCount = Int(bytes[index])
        let reason = reasonCount == 0 ? nil : String(decoding: bytes[(index + 1)..<(index + 1 + reasonCount)], as: UTF8.self)
        let ackDelay: Int64? = delay == noAck ? nil : Int64(delay)
        // An answer time no build writes (a damaged or planted row, SPEC 7) at the edge of Int64
        // leaves the entry out, as a damaged tail is: the times computed from it would overflow.
        let (sentAt, sentOverflow) = answeredAt.subtractingReportingOverflow(sentBefore)
        let (ackedAt, ackedOverflow) = answeredAt.addingReportingOverflow(ackDelay ?? 0)
        guard !sentOverflow && !ackedOverflow else { return nil }
        return PushAttempt(
            token: token, sentAt: sentAt, answeredAt: answeredAt, status: status == 0 ? nil : status,
            reason: reason, apnsID: apnsID, ackedAt: ackDelay.map { _ in ackedAt }, ackDelayMilliseconds: ackDelay)
    }

    private static func put(_ value: UInt64, bytes count: Int, into out: inout [UInt8]) {
        for byte in 0..<count { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(byte)))) }
    }

    /// A canonical UUID (8-4-4-4-12 hex digits, one case) as 16 bytes, and whether it was upper case.
    private static func uuid(_ text: String) -> ([UInt8], Bool)? {
        let utf8 = Array(text.utf8)
        guard utf8.count == 36 else { return nil }
        var bytes: [UInt8] = []
        var nibbles: [UInt8] = []
        var sawUpper = false
        var sawLower = false
        for (offset, byte) in utf8.enumerated() {
            if [8, 13, 18, 23].contains(offset) {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibbles.append(byte - 48)
            case UInt8(ascii: "a")...UInt8(ascii: "f"):
                sawLower = true
                nibbles.append(byte - 87)
            case UInt8(ascii: "A")...UInt8(ascii: "F"):
                sawUpper = true
                nibbles.append(byte - 55)
            default: return nil
            }
        }
        guard !(sawUpper && sawLower) else { return nil }
        for pair in stride(from: 0, to: 32, by: 2) { bytes.append(nibbles[pair] << 4 | nibbles[pair + 1]) }
        return (bytes, sawUpper)
    }

    private static func uuidText(_ bytes: [UInt8], upper: Bool) -> String {
        let digits = Array((upper ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        var out: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(index) { out.append(UInt8(ascii: "-")) }
            out += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
