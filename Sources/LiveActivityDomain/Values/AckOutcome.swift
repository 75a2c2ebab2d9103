/// What one `POST /wakeup/ack` came to (SPEC 3): it marked a push acknowledged, or it found the
/// push already acknowledged, or nothing to match (no registration, no push answered 200, or
/// the push is older than two intervals). Counted by outcome; only `matched` changes a push.
public enum AckOutcome: String, CaseIterable, Sendable, Hashable {
    case matched
    case duplicate
    case unmatched
}
