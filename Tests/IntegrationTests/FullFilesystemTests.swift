import Foundation
import LiveActivityDomain
import TestSupport
import Testing

/// A real full disk: the database folder is a small tmpfs mount (root only, and only where
/// mounting is permitted; the page-limit test in ReliabilityTests covers the rest).
@Suite("Full filesystem")
struct FullFilesystemTests {
    /// Mounts a tmpfs of `kilobytes` at a new folder; nil where mounting is not permitted.
    static func mountTmpfs(kilobytes: Int) -> TemporaryDirectory? {
        guard geteuid() == 0, let mount = systemTool("mount") else { return nil }
        let folder = TemporaryDirectory("tmpfs")
        let result = try? runCommand(mount, ["-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0700", "tmpfs", folder.path])
        return result?.status == 0 ? folder : nil
    }

    static let mountPermitted: Bool = {
        guard let probe = mountTmpfs(kilobytes: 64) else { return false }
        _ = try? runCommand(systemTool("umount") ?? "/bin/umount", [probe.path])
        return true
    }()

    @Test(.enabled(if: mountPermitted), arguments: TestEngine.real)
    func aFullDiskAnswers503KeepsEveryAcknowledgedRowAndResumesWhenSpaceReturns(engine: TestEngine) throws {
        let disk = try #require(Self.mountTmpfs(kilobytes: 1024))
        let umount = systemTool("umount") ?? "/bin/umount"
        defer { _ = try? runCommand(umount, ["-l", disk.path]) }
        let path = disk.file("registrations.sqlite")
        let stack = try LiveStack(with(engine, ["LIVEACTIVITY_DB": path]))
        let pid = stack.responder.pid

        let (accepted, refused) = try registerUntilRefused(stack, seeds: 40_000..<45_000)
        let refusal = try #require(refused, "5000 registrations fit in 1 MiB?")
        #expect(refusal.status == 503)
        #expect(accepted.count > 10, "the WAL grows by a few pages per registration")
        let faultLines = stack.responderLog.split(separator: "\n").filter { $0.contains("database error") }
        #expect(faultLines.count == 1, "\(faultLines)")
        #expect(faultLines.first?.contains("disk full") == true, "\(faultLines)")
        #expect(stack.responder.isRunning && stack.responder.pid == pid)

        // Space returns: the mount grows, and the same process takes registrations again.
        let mount = try #require(systemTool("mount"))
        #expect(try runCommand(mount, ["-o", "remount,size=4m", disk.path]).status == 0)
        let resumed = testToken(49_999)
        #expect(try stack.request("POST", "/wakeup", body: registerBody(resumed)).status == 200)
        #expect(stack.responder.pid == pid)
        try expectIntact(TestDatabase(sqliteFile: path), holding: accepted + [resumed])
    }
}
