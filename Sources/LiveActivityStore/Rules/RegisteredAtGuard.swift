/// An outcome is written only where its registration is still registered as the sweep read it
/// (SPEC 5: the app registered again meanwhile, and the new registration is not the one the
/// answer was about), written once for the engines that guard by it (SQLite, memory; PostgreSQL
/// guards by the lease id instead). The SQL engine filters with `sql`; the memory engine with
/// `matches`.
public struct RegisteredAtGuard: Sendable {
    /// The `registered_at` the sweep read.
    public var read: Int64

    public init(read: Int64) { self.read = read }

    public func matches(_ registeredAt: Int64) -> Bool { registeredAt == read }
}

extension OutcomeRow {
    /// The guard of this row's write.
    public var registeredAtGuard: RegisteredAtGuard { RegisteredAtGuard(read: selectedRegisteredAt) }
}
