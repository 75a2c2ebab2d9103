/// How a run ended, as the run history keeps it and the figures show it (SPEC 7): `ok`, or the
/// faults that stopped pushes. Stored as its `text`; read back, a text this build does not write
/// (planted, or a newer build's) is kept as stored, so the figures show what the database holds.
public enum RunOutcome: Sendable, Equatable {
    case ok
    /// The faults, each `scope kind reason (n pushes)`, `; ` between them.
    case faults(String)
    /// A stored text that is neither: shown as it is (escaped where it is shown).
    case unrecognised(String)

    /// A run's outcome from its faults.
    public init(_ faults: [SweepFault]) {
        guard !faults.isEmpty else {
            self = .ok
            return
        }
        self = .faults(
            faults.map { "\($0.scope) \($0.kind.rawValue) \($0.reason) (\($0.pushes) pushes)" }.joined(separator: "; "))
    }

    /// The outcome a stored `text` says.
    public init(stored text: String) {
        if text == Self.okText {
            self = .ok
        } else if text.hasPrefix(Self.faultsPrefix) {
            self = .faults(String(text.dropFirst(Self.faultsPrefix.count)))
        } else {
            self = .unrecognised(text)
        }
    }

    /// The text the run history stores and the figures show.
    public var text: String {
        switch self {
        case .ok: Self.okText
        case .faults(let list): Self.faultsPrefix + list
        case .unrecognised(let text): text
        }
    }

    private static let okText = "ok"
    private static let faultsPrefix = "faults: "
}
