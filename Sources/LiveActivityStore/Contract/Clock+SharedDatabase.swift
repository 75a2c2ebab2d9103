import LiveActivityDomain

extension Clock {
    /// This clock moved to the one due times, leases and expiry go by in `connection`'s
    /// database (SPEC 4): the server's where it is shared (PostgreSQL), this host's otherwise.
    public func movedToDatabase(of connection: any StoreConnection) -> Clock {
        guard let shared = connection as? any SharedDatabase else { return self }
        return Clock(offsetMilliseconds: offsetMilliseconds + shared.clockOffsetMilliseconds)
    }
}
