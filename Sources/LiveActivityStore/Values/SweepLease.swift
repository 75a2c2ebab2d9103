import LiveActivityDomain

/// A sweep's hold on the rows it reads (SPEC 5, "Several hosts"): on PostgreSQL each claimed row
/// carries this host's name, this id and an end `seconds` after the database's now, and an
/// outcome is written only where the row still carries the id. It is the state of a shared
/// database's connection (`SharedDatabase.lease`), set once per sweep; SQLite, one host behind
/// the sweep's lock, takes none.
public struct SweepLease: Sendable, Equatable {
    /// `LIVEACTIVITY_HOST_NAME`.
    public var host: String
    /// Random, one per sweep.
    public var id: String
    public var seconds: Int

    public init(host: String, id: String, seconds: Int) {
        self.host = host
        self.id = id
        self.seconds = seconds
    }

    /// A new lease with a random id.
    public static func random(host: String, seconds: Int) -> SweepLease {
        var generator = SystemRandomNumberGenerator()
        let id = (0..<2).map { _ in String(generator.next() as UInt64, radix: 16) }.joined(separator: "-")
        return SweepLease(host: host, id: id, seconds: seconds)
    }
}

/// One due row as a page read it (`SweepStatements.claimDue`): its place in the due order, and
/// the target, or why this build cannot use it (a value it does not know or trust: the sweep
/// skips the row with one line, never crashes on it).
public struct DueRead: Sendable {
    public var position: DuePosition
    public var target: Result<DueTarget, StoredValueError>

    public init(position: DuePosition, target: Result<DueTarget, StoredValueError>) {
        self.position = position
        self.target = target
    }
}
