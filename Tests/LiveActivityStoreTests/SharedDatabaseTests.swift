import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore

/// Only a database several hosts share (PostgreSQL) speaks `SharedDatabase` (the server's clock,
/// the host name's lock, the lease): the programs ask every connection `as? any SharedDatabase`
/// and take a one-host engine's answer from its absence, so a one-host engine that conformed by
/// accident would lock names, claim under leases and read a clock it does not have.
@Suite struct SharedDatabaseTests {
    @Test(arguments: TestEngine.every)
    func onlyTheSharedEngineSpeaksForSeveralHosts(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "shared")
        let opened: [(String, () throws -> any StoreConnection)] = [
            ("the responder's", { try database.engine.openRegistrations() }),
            ("a sweep's", { try database.engine.openSweep(migrating: true) }),
            ("the outcome writer's", { try database.engine.openOutcomeWriter() }),
            ("the commands'", { try database.engine.openExisting() }),
        ]
        for (name, open) in opened {
            let connection = try open()
            defer { connection.close() }
            #expect((connection as? any SharedDatabase != nil) == (engine == .postgres), "\(name) connection")
        }
    }

    @Test func aSharedDatabaseClaimsNothingUnderNoLease() throws {
        let database = try TestDatabase(.postgres, label: "no-lease")
        try database.register(PushToken(trusted: sampleToken(1)), now: 1000)
        let connection = try database.engine.openSweep(migrating: true)
        defer { connection.close() }
        #expect(throws: StoreFault.self) {
            try connection.claimDue(atOrBefore: .max, environments: APNsEnvironment.allCases, after: nil, limit: 10)
        }
        #expect(throws: StoreFault.self) { try connection.write([]) }
        let claimed = try database.reading {
            try $0.claimDue(atOrBefore: .max, environments: APNsEnvironment.allCases, after: nil, limit: 10)
        }
        #expect(claimed.count == 1, "claimed once a lease is set")
    }
}
