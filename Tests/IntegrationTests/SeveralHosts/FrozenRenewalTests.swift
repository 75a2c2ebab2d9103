import Foundation
import LiveActivityDomain
import TestSupport
import Testing

/// Issue 30 point 8: a host frozen or cut off inside the provider token's renewal held its lock
/// for as long as the server kept its session (TCP keepalive: about two hours), and every other
/// host's renewal waited for it: no host pushed. The renewal is a row lock in a transaction that
/// the server ends once it has been idle for seconds, so the other hosts renew and push.
@Suite("A host frozen inside the token's renewal")
struct FrozenRenewalTests {
    /// Stops its process (SIGSTOP) at the first signature, which a sweep makes only inside the
    /// renewal, between the row's lock and the token's write. The sweep looks libcrypto's functions
    /// up in the global scope first, as a linked program's are, so a preloaded one interposes.
    static let shimSource = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <signal.h>
        #include <stddef.h>

        typedef int (*digest_sign)(void *, unsigned char *, size_t *, const unsigned char *, size_t);

        int EVP_DigestSign(void *context, unsigned char *signature, size_t *length, const unsigned char *data, size_t count) {
            static int stopped = 0;
            if (!stopped) {
                stopped = 1;
                raise(SIGSTOP);
            }
            // libcrypto is opened at run time, out of the global scope RTLD_NEXT searches: by its handle.
            digest_sign real = (digest_sign)dlsym(dlopen("libcrypto.so.3", RTLD_NOW | RTLD_NOLOAD), "EVP_DigestSign");
            return real(context, signature, length, data, count);
        }
        """

    func buildShim(in folder: TemporaryDirectory) throws -> String {
        let source = folder.file("freeze-in-signing.c")
        let library = folder.file("freeze-in-signing.so")
        try Self.shimSource.write(toFile: source, atomically: true, encoding: .utf8)
        let cc = try #require(systemTool("cc"), "a C compiler builds the shim")
        let built = try runCommand(cc, ["-shared", "-fPIC", "-O1", "-o", library, source, "-ldl"], timeout: 120)
        #expect(built.status == 0, "\(built.stderr)")
        return library
    }

    /// The state letter of `pid` in /proc (`T`: stopped).
    func state(_ pid: Int32) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(close, offsetBy: 2)...].split(separator: " ").first.map(String.init)
    }

    @Test func theOtherHostsRenewAndPushWhileOneIsFrozenHoldingTheLock() throws {
        let hosts = try SweepingHosts()
        try hosts.register(20)
        let shim = try buildShim(in: hosts.fixture.folder)
        // No token kept yet: the first sweep renews, and freezes inside the renewal.
        let frozen = try hosts.start("web1", ["LD_PRELOAD": shim])
        #expect(waitUntil(timeout: 60) { state(frozen.pid) == "T" || !frozen.isRunning }, "it never reached the signature")
        try #require(state(frozen.pid) == "T", "the first host ended instead of freezing: \(frozen.output)")

        let other = try hosts.sweep("web2", timeout: 120)
        #expect(other.status == 0, "the other host waited on the frozen one: \(other.stdout) \(other.stderr)")
        #expect(SweepingHosts.sent(other.stdout) == 20, "\(other.stdout)")
        #expect(try hosts.receivedCounts().count == 20)

        // Woken, the frozen host finds its session ended by the server: one line, no crash.
        frozen.signal(SIGCONT)
        let end = frozen.waitForExit(timeout: 120)
        #expect(end != nil && end != .exited(0), "its renewal cannot have been written: \(String(describing: end))")
        if case .signalled = end { Issue.record("the frozen host crashed when woken: \(frozen.output)") }
        #expect(isCrashFree(frozen.output), "\(frozen.output)")
        // Every push went out once; the token the other host signed is the one kept.
        #expect(try hosts.receivedCounts().values.allSatisfy { $0 == 1 })
        #expect(try hosts.fixture.cachedToken() != nil)
    }
}
