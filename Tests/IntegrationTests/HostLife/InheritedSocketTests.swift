import Foundation
import TestSupport
import Testing

/// A listening socket the responder inherited (spawn-fcgi, systemd) outlives the responder: the
/// next process serves the same socket (SPEC 7, issue #8 defect 1).
@Suite("Inherited socket")
struct InheritedSocketTests {
    /// A listening unix socket made here, as spawn-fcgi or systemd makes it.
    func listeningSocket(at path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8))
            raw[path.utf8.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(descriptor, 64) == 0 else { throw SocketError("bind/listen \(path) failed") }
        return descriptor
    }

    func health(_ path: String) -> Int? {
        guard let socket = try? RawSocket(unixPath: path, timeout: 3) else { return nil }
        return try? FastCGIClient.request(
            over: socket, parameters: ["REQUEST_METHOD": "GET", "DOCUMENT_URI": "/wakeup/health", "REMOTE_ADDR": "127.0.0.1"]
        ).status
    }

    @Test func aStoppedResponderLeavesTheSocketServableForTheNext() throws {
        let folder = TemporaryDirectory("inherited")
        let path = folder.file("fcgi.sock")
        let descriptor = try listeningSocket(at: path)
        defer { close(descriptor) }
        let stdin = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        let environment = ["LIVEACTIVITY_DB": folder.file("db.sqlite"), "PATH": "/usr/bin:/bin"]

        let first = try ChildProcess(
            product("liveactivity-fcgi"), ["--workers", "2"], environment: environment,
            outputPath: folder.file("first.log"), standardInput: stdin)
        #expect(waitUntil(timeout: 60) { health(path) == 200 }, "the first responder never answered: \(first.output)")
        first.signal(SIGTERM)
        #expect(first.waitForExit(timeout: 60) == .exited(0), "the first responder did not stop cleanly on SIGTERM")

        let second = try ChildProcess(
            product("liveactivity-fcgi"), ["--workers", "2"], environment: environment,
            outputPath: folder.file("second.log"), standardInput: stdin)
        let served = waitUntil(timeout: 60) { health(path) == 200 }
        #expect(served, "the next responder cannot serve the inherited socket: \(second.output)")
        #expect(!second.output.contains("no worker is left"), "the next responder's workers died: \(second.output)")
    }

    @Test func sighupToTheSupervisorRestartsTheResponderOnTheSameSocket() throws {
        let stack = try supervisedStack(.sqlite, label: "sighup")
        for round in 1...2 {
            let before = childProcesses(of: stack.responder.pid)
            stack.responder.signal(SIGHUP)
            let restarted = waitUntil(timeout: 60) {
                let now = childProcesses(of: stack.responder.pid)
                return !now.isEmpty && now != before && (try? stack.request("GET", "/wakeup/health"))?.status == 200
            }
            #expect(restarted, "SIGHUP \(round): no new responder answered: \(stack.responderLog.suffix(400))")
        }
        #expect(!stack.responderLog.contains("no worker is left"), "a restarted responder lost its workers")
        #expect(stack.responderLog.contains("on SIGHUP"), "the supervisor did not log the restart")
    }
}
