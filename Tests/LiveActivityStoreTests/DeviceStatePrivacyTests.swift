import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore

/// Issue 49 point 7 (SPEC 1, 3): the device state is kept as its latest words only, with the
/// push target, and the table of push targets holds nothing beyond what SPEC 4 allows: the
/// tokens, the app, type and environment, times, counts, the attempts and the four coarse words.
@Suite("Device state: the stored row holds nothing else")
struct DeviceStatePrivacyTests {
    /// Every column `push_targets` may have. A new one is a decision about privacy: add it here
    /// only with SPEC 1's and README's promise in hand.
    static let allowed: Set<String> = [
        "registration_token", "push_kind", "push_token", "app", "activity_type", "environment", "registered_at",
        "expires_at", "requested_interval", "next_push_at", "last_push_at", "push_count", "consecutive_failures",
        "last_error", "attempts", "waiting_ack_at", "guard_holds", "lease_id", "lease_host", "lease_until",
        "activities", "background_refresh", "low_power", "unchanged_acks", "waiting_changed",
    ]

    func columns(_ database: TestDatabase) throws -> Set<String> {
        let sql =
            database.kind == .sqlite
            ? "SELECT name FROM pragma_table_info('push_targets')"
            : "SELECT column_name FROM information_schema.columns WHERE table_name = 'push_targets'"
        return Set(try database.rows(sql).compactMap { $0.first ?? nil })
    }

    @Test(arguments: TestEngine.real)
    func thePushTargetsTableHoldsOnlyWhatTheSpecAllows(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "privacy")
        let now: Int64 = 1_800_000_000_000
        let token = PushToken(trusted: sampleToken(1))
        try database.register(token, now: now, device: DeviceState(activities: 2, backgroundRefresh: .available, lowPower: true))
        let found = try columns(database)
        #expect(!found.isEmpty)
        #expect(found.subtracting(Self.allowed).isEmpty, "unexpected columns: \(found.subtracting(Self.allowed).sorted())")
        // Only the latest word: an ack's replaces the registration's, and nothing else is added.
        try database.acknowledge(token, now: now + 1000, report: AckReport(device: DeviceState(lowPower: false)))
        let row = try database.rows(
            "SELECT activities, background_refresh, low_power, unchanged_acks FROM push_targets WHERE push_kind = 'wake'")
        #expect(row.map { $0.map { $0 ?? "-" } } == [["2", "available", "0", "0"]])
        #expect(try database.rows("SELECT count(*) FROM push_targets").first?.first == "1", "one row: no history")
    }
}
