import LiveActivityDomain
import LiveActivityStore

/// The store's contract over plain values in this process's memory (STYLE 20: Hummingbird's
/// `MemoryPersistDriver` beside its real drivers), for the figures' and the sweep's unit tests:
/// fast, nothing to start, nothing left behind. It decides nothing: every rule it needs is
/// above the contract (`TargetWrite`, `TargetCounting`, `RunRecord`, `Retention`, `AckRule`,
/// `IntervalPolicy`), which it only carries out - so a rule an engine had to write again would
/// show here first. The programs never use it.
public final class MemoryEngine: StoreEngine, Sendable {
    let database = MemoryDatabase()

    public init() {}

    public var location: String { "memory" }

    public func openRegistrations() throws -> any RegistrationStatements { MemoryStoreConnection(database) }

    public func openSweep(migrating: Bool) throws -> any SweepStatements { MemoryStoreConnection(database) }

    public func openOutcomeWriter() throws -> any SweepStatements { MemoryStoreConnection(database) }

    public func openExisting() throws -> any SweepStatements { MemoryStoreConnection(database) }

    /// The sweep's folder is the caller's to name: nothing of the sweep's lives beside memory.
    public var defaultSweepFolder: String? { nil }

    public func providerTokens(sweepFolder: String) -> any ProviderTokenStore { MemoryProviderTokens(database) }
}

/// The cached provider token, in memory: renewed under the database's one lock.
final class MemoryProviderTokens: ProviderTokenStore {
    let database: MemoryDatabase

    init(_ database: MemoryDatabase) { self.database = database }

    func load(cacheKey: String) throws -> ProviderToken? { database.exclusive { $0.providerTokens[cacheKey] } }

    func renew(cacheKey: String, _ renew: (ProviderToken?) throws -> ProviderToken) throws -> ProviderToken {
        try database.exclusive { state in
            let token = try renew(state.providerTokens[cacheKey])
            state.providerTokens[cacheKey] = token
            return token
        }
    }
}
