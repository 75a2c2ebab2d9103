import CCurl
import Glibc

/// The TCP sockets of a multi handle's connections, recorded as libcurl opens and closes them
/// (CURLOPT_SOCKOPTFUNCTION, CURLOPT_CLOSESOCKETFUNCTION), so that a pass over the transfers can
/// hold what it writes to one segment per connection (`corked`).
///
/// Why: libcurl 7.88 hands each HTTP/2 frame to TLS and the socket on its own, so every request
/// left as one or two small TLS records, each its own `send` and TCP segment (1.3 a push). A
/// segment costs the sender the whole transmit path (on loopback the receiver's too), which was
/// a sixth of the sweep's main thread at 100 ms, and costs the network a packet. Corked for a
/// pass, the same writes leave as a few full segments when it ends: the sweep of 100,000 at
/// 100 ms took 122 us of CPU a push instead of 164, and 9 s instead of 13.5.
///
/// Owned by the `CurlMulti` whose connections these are: libcurl closes them through it as late
/// as `curl_multi_cleanup`.
final class ConnectionSockets {
    private(set) var descriptors: [Int32] = []
    /// Connections opened and closed so far. libcurl resends a stream only on a connection it
    /// gives up on (and closes) or on a new one, so a pooled handle whose pushes saw this count
    /// stand still has used none of its resends (`APNsTransfer.prepare`).
    private(set) var changes = 0

    /// Runs `body` with every connection corked (TCP_CORK: partial segments are held), then
    /// uncorks them, which sends what `body` wrote at once. Best effort: a socket that refuses
    /// the option is written to as before.
    func corked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let held = descriptors
        for descriptor in held { Self.setCork(descriptor, 1) }
        defer { for descriptor in held where descriptors.contains(descriptor) { Self.setCork(descriptor, 0) } }
        return try body()
    }

    private static func setCork(_ descriptor: Int32, _ value: Int32) {
        var value = value
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_CORK, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Points `easy`'s socket callbacks at this set, which must outlive every connection `easy` opens.
    func observe(_ easy: CurlEasy) throws(CurlError) {
        let owner = Unmanaged.passUnretained(self).toOpaque()
        try easy.set(CURLOPT_SOCKOPTDATA, pointer: owner, "CURLOPT_SOCKOPTDATA")
        try easy.set(CURLOPT_SOCKOPTFUNCTION, sockopt: Self.onOpen, "CURLOPT_SOCKOPTFUNCTION")
        try easy.set(CURLOPT_CLOSESOCKETDATA, pointer: owner, "CURLOPT_CLOSESOCKETDATA")
        try easy.set(CURLOPT_CLOSESOCKETFUNCTION, closeSocket: Self.onClose, "CURLOPT_CLOSESOCKETFUNCTION")
    }

    // MARK: - libcurl callbacks

    static let onOpen: curl_sockopt_callback = { owner, descriptor, purpose in
        if let owner, purpose == CURLSOCKTYPE_IPCXN {
            let sockets = Unmanaged<ConnectionSockets>.fromOpaque(owner).takeUnretainedValue()
            sockets.descriptors.append(descriptor)
            sockets.changes += 1
        }
        return CURL_SOCKOPT_OK
    }

    static let onClose: curl_closesocket_callback = { owner, descriptor in
        if let owner {
            let sockets = Unmanaged<ConnectionSockets>.fromOpaque(owner).takeUnretainedValue()
            sockets.descriptors.removeAll { $0 == descriptor }
            sockets.changes += 1
        }
        return close(descriptor)
    }
}
