import Foundation
import LiveActivityDomain
import TestSupport
import Testing

/// A host whose clock is minutes off (SPEC 4: due times, leases and expiry go by the database
/// server's clock, not the host's): its sweep pushes, expires and records exactly what a host with
/// a right clock would. The host's clock is moved for real, under the unchanged program: a small
/// preloaded library (built here with cc, as faketime would be) adds minutes to every wall-clock
/// read of the process (clock_gettime, gettimeofday, time), monotonic clocks left alone.
@Suite("A host whose clock is off")
struct HostClockTests {
    static let shimSource = """
        #define _GNU_SOURCE
        #include <stdlib.h>
        #include <sys/syscall.h>
        #include <sys/time.h>
        #include <time.h>
        #include <unistd.h>

        /* Seconds this process's wall clock is off: the test's HOST_CLOCK_SKEW_SECONDS. */
        static long long skew(void) {
            const char *value = getenv("HOST_CLOCK_SKEW_SECONDS");
            return value ? atoll(value) : 0;
        }

        int clock_gettime(clockid_t id, struct timespec *spec) {
            int result = (int)syscall(SYS_clock_gettime, id, spec);
            if (result == 0 && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)) spec->tv_sec += skew();
            return result;
        }

        int gettimeofday(struct timeval *restrict value, void *restrict zone) {
            (void)zone;
            struct timespec spec;
            int result = clock_gettime(CLOCK_REALTIME, &spec);
            if (result == 0 && value) {
                value->tv_sec = spec.tv_sec;
                value->tv_usec = spec.tv_nsec / 1000;
            }
            return result;
        }

        time_t time(time_t *out) {
            struct timespec spec;
            clock_gettime(CLOCK_REALTIME, &spec);
            if (out) *out = spec.tv_sec;
            return spec.tv_sec;
        }
        """

    /// Builds the library in `folder`; its path.
    func buildShim(in folder: TemporaryDirectory) throws -> String {
        let source = folder.file("skewed-clock.c")
        let library = folder.file("skewed-clock.so")
        try Self.shimSource.write(toFile: source, atomically: true, encoding: .utf8)
        let cc = try #require(systemTool("cc"), "a C compiler builds the clock shim")
        let built = try runCommand(cc, ["-shared", "-fPIC", "-O1", "-o", library, source], timeout: 120)
        #expect(built.status == 0, "\(built.stderr)")
        return library
    }

    @Test func aHostTenMinutesAheadPushesExpiresAndRecordsByTheDatabasesClock() throws {
        let hosts = try SweepingHosts()
        let shim = try buildShim(in: hosts.fixture.folder)
        let skewed = ["LD_PRELOAD": shim, "HOST_CLOCK_SKEW_SECONDS": "600"]
        // The shim does move a process's clock: date(1) reads it as every program does.
        let real = Clock().now() / 1000
        let shown =
            Int64(
                try runCommand("/bin/date", ["+%s"], environment: skewed).stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            ?? 0
        #expect(shown - real >= 590 && shown - real <= 660, "date under the shim said \(shown), the clock \(real)")

        // 10 devices registered now, 5 registered 7 h 55 min ago (they expire at 8 h).
        try hosts.fixture.register(1...10)
        try hosts.fixture.register(11...15, ago: (7 * 60 + 55) * 60_000)
        let first = try hosts.sweep("right-clock")
        #expect(first.status == 0 && SweepingHosts.sent(first.stdout) == 15, "\(first.stdout)\(first.stderr)")
        // 5 more since; then the host whose clock is 10 minutes ahead sweeps.
        try hosts.fixture.register(16...20)
        let ahead = try hosts.sweep("clock-ahead", skewed)
        #expect(ahead.status == 0, "\(ahead.stdout)\(ahead.stderr)")
        // By its own clock the first 15 would be due again (5 minutes' interval) and 11-15 expired.
        #expect(SweepingHosts.sent(ahead.stdout) == 5, "only the new ones: \(ahead.stdout)")
        #expect(SweepFixture.field("expired", in: ahead.stdout) == "0", "\(ahead.stdout)")
        let counts = try hosts.receivedCounts()
        #expect(counts.count == 20 && counts.values.allSatisfy { $0 == 1 })
        #expect(try hosts.standIn.state().received().allSatisfy { $0.status == 200 }, "its provider token is not from the future")
        #expect(try hosts.database.count() == 20)
        // Its run is recorded at the database's time, not 10 minutes ahead.
        let offset =
            try hosts.database.scalar(
                "SELECT started_at - liveactivity_now_ms() FROM sweep_runs WHERE host = 'clock-ahead'") ?? Int64.max
        #expect(abs(offset) < 120_000, "recorded \(offset) ms from the database's now")
        // Its next due times too: 5 minutes after the database's now.
        let next =
            try hosts.database.scalar(
                "SELECT max(next_push_at) - liveactivity_now_ms() FROM push_targets WHERE lease_host = 'clock-ahead'")
            ?? Int64.max
        #expect(next > 120_000 && next <= 300_000 + 30_000, "next push in \(next) ms")
    }
}
