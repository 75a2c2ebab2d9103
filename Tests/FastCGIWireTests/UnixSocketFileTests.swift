import Foundation
import TestSupport
import Testing

@testable import FastCGIWire

/// The responder's own unix socket: made with its mode, by a process whose other threads go on
/// meanwhile (in the tests, other suites spawning programs; in the responder, its store's threads).
@Suite struct UnixSocketFileTests {
    /// The process's umask as the kernel has it (reading it with umask(2) would change it).
    static func currentUmask() -> String? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        return status.split(separator: "\n").first { $0.hasPrefix("Umask:") }.map(String.init)
    }

    /// A umask set around bind(2) is every thread's while it lasts: a program another thread
    /// spawned in that window kept it for life (a test's `swift package dump-package` wrote its
    /// manifest program 0640 and could not run it: "posix_spawn error: Permission denied").
    @Test func openingASocketNeverChangesTheProcesssUmask() throws {
        let folder = TemporaryDirectory("umask")
        let before = try #require(Self.currentUmask())
        let seen = LockedBox<Set<String>>([])
        let done = LockedBox(false)
        let watching = TestSignal()
        let watcher = TestThreads()
        watcher.start {
            var first = true
            while !done.get() {
                if let mask = Self.currentUmask() { seen.update { _ = $0.insert(mask) } }
                if first { watching.signal() }
                first = false
            }
        }
        defer {
            done.set(true)
            // Bounded: the watcher's loop reads one small file per turn.
            #expect(watcher.wait(timeout: .seconds(60)), "the watcher thread did not end")
        }
        // On a busy machine the 300 opens can be over before a new thread first runs.
        try #require(watching.wait(timeout: .seconds(60)), "the watcher thread did not start")
        for index in 0..<300 {
            let path = folder.file("s\(index % 4)")
            let socket = try ListeningSocket(.unix(path: path, mode: 0o600), backlog: 4)
            close(socket.descriptor)
        }
        done.set(true)
        let masks = seen.get()
        #expect(!masks.isEmpty)
        #expect(masks.subtracting([before]).isEmpty, "the umask was \(masks) during the opens, \(before) around them")
    }

    @Test func theSocketHasItsModeAndReplacesAStaleFile() throws {
        let folder = TemporaryDirectory("mode")
        let path = try folder.write("fcgi.sock", "a stale file from an earlier run")
        for mode: mode_t in [0o600, 0o660, 0o666] {
            let socket = try ListeningSocket(.unix(path: path, mode: mode), backlog: 4)
            defer { close(socket.descriptor) }
            var status = stat()
            #expect(lstat(path, &status) == 0)
            #expect(status.st_mode & S_IFMT == S_IFSOCK)
            #expect(status.st_mode & 0o777 == mode)
            // It listens: a client connects.
            _ = try RawSocket(unixPath: path)
        }
    }

    /// libfcgi's FCGX_OpenSocket exits the process with errno when bind fails (os_unix.c): a
    /// folder that is not there, or a path longer than a socket's, is one error for the operator.
    @Test(arguments: ["/nonexistent-folder-of-a-test/fcgi.sock", "/tmp/" + String(repeating: "x", count: 120)])
    func aPathThatCannotBeBoundIsAnErrorNotAnExit(path: String) {
        #expect(throws: TransportStartError.self) { _ = try ListeningSocket(.unix(path: path, mode: 0o600), backlog: 4) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
