import Foundation
import Glibc
import LiveActivityDomain
import TestSupport
import Testing

@testable import APNsHTTP2

/// The client's connections as the kernel sees them: what one pass writes leaves together, and
/// every socket libcurl opens is known while it is open and closed when it is done with.
@Suite struct ConnectionSocketsTests {
    /// libcurl 7.88 writes each HTTP/2 frame on its own (one or two sends a request); corked for
    /// a pass, a window of requests leaves in a few TCP segments. Counted by the kernel
    /// (TCP_INFO's data segments) while every answer is held, so only requests are counted.
    @Test func aWindowOfRequestsLeavesInAFewSegments() throws {
        let standIn = try StandInStack(workers: 24)
        let state = try standIn.state()
        for number in 1...100 {
            try state.script(token: token(number).hex, status: 200, reason: nil, delayMilliseconds: 3000)
        }
        let client = try APNsClient(options: standIn.clientOptions(), providerToken: standIn.providerToken())
        // One push answered first: the connection is up and its SETTINGS are in force.
        client.submit(contentsOf: pushes(0..<1))
        #expect(try drain(client)[0]?.status == 200)
        let sockets = client.connectionSockets
        try #require(sockets.count == 1)
        let before = try dataSegmentsSent(on: sockets[0])

        client.submit(contentsOf: pushes(1...100))
        // Every request handed to libcurl and sent (its body gone from libcurl's buffer), the
        // pass that sent the last of them over: the segments have left.
        let sent = waitUntil(timeout: 60) {
            _ = try? client.poll(timeoutMilliseconds: 50)
            return client.queuedCount == 0 && client.uploadBuffersHeld == 0
        }
        #expect(sent && client.inFlightCount == 100)
        #expect(client.connectionSockets == sockets, "one connection carried them all")
        let segments = try dataSegmentsSent(on: sockets[0]) - before
        // The window opens 32 at a time with the answers held (`InFlightWindow`): a handful of
        // passes, each a segment or two. Uncorked it took 100 to 200.
        #expect(segments <= 25, "100 requests left in \(segments) segments")
        client.cancelAll()
    }

    /// Connections come and go (a GOAWAY every 50 streams): the set holds the open ones alone,
    /// and libcurl's sockets, closed through it, are all closed once the client is gone.
    @Test func theSetHoldsTheOpenConnectionsAndClosesEachOnce() throws {
        let standIn = try StandInStack(workers: 8, goawayAfter: 50)
        var client: APNsClient? = try APNsClient(options: standIn.clientOptions(), providerToken: standIn.providerToken())
        client?.submit(contentsOf: pushes(0..<520))
        let answers = try drain(try #require(client))
        #expect(answers.count == 520 && answers.values.allSatisfy { $0.status == 200 })
        #expect(Set(try standIn.state().arrivals().compactMap(\.connection)).count >= 10, "ten connections or more")

        let open = try #require(client?.connectionSockets)
        #expect(!open.isEmpty && open.count <= client?.options.maxConnections ?? 0, "\(open): the closed ones are forgotten")
        let identities = open.map(socketIdentity)
        #expect(identities.allSatisfy { $0 != nil }, "each descriptor held is an open socket")

        client = nil
        // A descriptor may be taken again at once by another test's file: it must at least no
        // longer be the socket it was.
        #expect(zip(open, identities).allSatisfy { socketIdentity($0.0) != $0.1 }, "every connection closed")
    }

    /// The socket's data segments sent so far: `tcpi_data_segs_out` of Linux's `struct
    /// tcp_info` (linux/tcp.h, at byte 156 since Linux 4.6; the struct only ever grows), which
    /// glibc's older copy of the struct lacks.
    private func dataSegmentsSent(on descriptor: Int32) throws -> Int {
        var info = [UInt8](repeating: 0, count: 256)
        var length = socklen_t(info.count)
        let result = info.withUnsafeMutableBytes {
            getsockopt(descriptor, Int32(IPPROTO_TCP), TCP_INFO, $0.baseAddress, &length)
        }
        try #require(result == 0 && length >= 160, "TCP_INFO: \(String(cString: strerror(errno)))")
        return info.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: 156, as: UInt32.self)) }
    }
}

/// What a descriptor is open on, when it is a socket: its device and inode.
private func socketIdentity(_ descriptor: Int32) -> [UInt64]? {
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { return nil }
    return [UInt64(status.st_dev), UInt64(status.st_ino)]
}
