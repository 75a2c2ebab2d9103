import CCurl
import LiveActivityDomain

/// The options every push's easy handle gets, applied to a handle once (and again after a reset,
/// see `APNsTransfer.prepare`), and the lists they point at, kept alive here for as long as any
/// handle may use them.
final class TransferSetup {
    let options: APNsClientOptions
    /// Header lines that never change for a kind of push to an app (SPEC section 5.5: its topic
    /// and push type, its priority where it has one - 5, the only valid one for background), by
    /// kind and bundle id, each built at its first push.
    private var constantHeaders: [HeadersKey: [String]] = [:]
    let deviceURLPrefix: String
    private let connectTo: CurlStringList?
    /// The multi handle's sockets, which each handle reports its connections to.
    private let sockets: ConnectionSockets

    /// Connections opened and closed so far (`ConnectionSockets.changes`).
    var connectionChanges: Int { sockets.changes }

    private struct HeadersKey: Hashable {
        let kind: PushKind
        let bundleID: String
    }

    init(options: APNsClientOptions, sockets: ConnectionSockets) throws(CurlError) {
        self.options = options
        self.sockets = sockets
        deviceURLPrefix = options.baseURL + "/3/device/"
        connectTo = try options.connectToEntry.map { entry throws(CurlError) in try CurlStringList([entry]) }
    }

    /// The header list of the pushes like `push`, made once and shared by every handle: its
    /// `apns-expiration` moves each second, and a list a handle, rebuilt per handle, was a third
    /// of the pushes building six strings and a `curl_slist` of them. A handle keeps the list it
    /// points at alive; the table forgets old ones.
    func headerList(for push: APNsPush, authorization: String) throws(CurlError) -> CurlStringList {
        let key = ListKey(kind: push.kind, bundleID: push.bundleID, expiration: push.kind.expires ? push.expiration : 0)
        if let shared = headerLists[key], shared.authorization == authorization { return shared.list }
        if headerLists.count >= 64 { headerLists.removeAll(keepingCapacity: true) }
        let list = try CurlStringList(headers(for: push, authorization: authorization))
        headerLists[key] = (authorization, list)
        return list
    }

    private struct ListKey: Hashable {
        let kind: PushKind
        let bundleID: String
        let expiration: Int64
    }
    private var headerLists: [ListKey: (authorization: String, list: CurlStringList)] = [:]

    /// The header lines of `push`'s kind and app that never change, then its expiration where its kind sends one.
    func headers(for push: APNsPush, authorization: String) -> [String] {
        constantHeaders(of: push.kind, bundleID: push.bundleID) + ["authorization: " + authorization]
            + (push.kind.expires ? ["apns-expiration: \(push.expiration)"] : [])
    }

    private func constantHeaders(of kind: PushKind, bundleID: String) -> [String] {
        let key = HeadersKey(kind: kind, bundleID: bundleID)
        if let lines = constantHeaders[key] { return lines }
        let lines =
            ["apns-topic: " + kind.topic(forBundleID: bundleID), "apns-push-type: " + kind.pushType]
            + (kind.priority.map { ["apns-priority: \($0)"] } ?? []) + ["content-type: application/json"]
        constantHeaders[key] = lines
        return lines
    }

    /// Per-transfer buffer sizes, the smallest libcurl takes: an answer is a few dozen bytes. A
    /// transfer in flight holds the receive buffer until its answer, the upload buffer only until
    /// its request has left (`APNsTransfer.releaseUploadBuffer`).
    static let receiveBufferSize = 1024
    static let uploadBufferSize = 16384

    /// Sets everything that is the same for every push of `kind` on `easy`, whose callbacks reach
    /// `owner`: all but the URL, the header list and the timeouts (`applyTimeout`).
    func apply(to easy: CurlEasy, owner: UnsafeMutableRawPointer, kind: PushKind) throws(CurlError) {
        try easy.set(CURLOPT_PRIVATE, pointer: owner, "CURLOPT_PRIVATE")
        try easy.set(CURLOPT_WRITEDATA, pointer: owner, "CURLOPT_WRITEDATA")
        try easy.set(CURLOPT_WRITEFUNCTION, callback: APNsTransfer.onBody, "CURLOPT_WRITEFUNCTION")
        try easy.set(CURLOPT_HEADERDATA, pointer: owner, "CURLOPT_HEADERDATA")
        try easy.set(CURLOPT_HEADERFUNCTION, callback: APNsTransfer.onHeader, "CURLOPT_HEADERFUNCTION")
        try sockets.observe(easy)
        try easy.set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS, "CURLOPT_HTTP_VERSION")
        // CURLOPT_PIPEWAIT stays off (libcurl's default, as the reset leaves it): a transfer opens
        // a connection rather than wait for one being set up to say it multiplexes. The client
        // allows only the connections its backlog needs (CURLMOPT_MAX_HOST_CONNECTIONS), and
        // waiting opened the others a round trip after the first (at 100 ms, 8% of a sweep of
        // 20,000). Past that limit a transfer waits for a stream as it would anyway.
        try easy.set(CURLOPT_PROTOCOLS_STR, string: "https", "CURLOPT_PROTOCOLS_STR")
        // APNs requires TLS 1.2 or later (APNS.md section 1).
        try easy.set(CURLOPT_SSLVERSION, CURL_SSLVERSION_TLSv1_2, "CURLOPT_SSLVERSION")
        try easy.set(CURLOPT_NOSIGNAL, 1, "CURLOPT_NOSIGNAL")
        try easy.set(CURLOPT_TCP_KEEPALIVE, 1, "CURLOPT_TCP_KEEPALIVE")
        try easy.set(CURLOPT_TCP_KEEPIDLE, options.keepaliveSeconds, "CURLOPT_TCP_KEEPIDLE")
        try easy.set(CURLOPT_TCP_KEEPINTVL, options.keepaliveSeconds, "CURLOPT_TCP_KEEPINTVL")
        if let caFile = options.caFile {
            try easy.set(CURLOPT_CAINFO, string: caFile, "CURLOPT_CAINFO")
        }
        if let connectTo {
            try easy.set(CURLOPT_CONNECT_TO, list: connectTo, "CURLOPT_CONNECT_TO")
        }
        // Small buffers: answers are a few dozen bytes and the payload 57, but libcurl's defaults
        // (16 kB to receive, 64 kB to send) are allocated for every transfer in flight. Best
        // effort: libcurl refuses a new receive size while the handle still holds a buffer.
        _ = try? easy.set(CURLOPT_BUFFERSIZE, Self.receiveBufferSize, "CURLOPT_BUFFERSIZE")
        try easy.set(CURLOPT_UPLOAD_BUFFERSIZE, Self.uploadBufferSize, "CURLOPT_UPLOAD_BUFFERSIZE")
        // A kind's payload never changes: POST it from libcurl's own copy.
        try easy.set(CURLOPT_POSTFIELDSIZE, kind.payload.utf8.count, "CURLOPT_POSTFIELDSIZE")
        try easy.set(CURLOPT_COPYPOSTFIELDS, string: kind.payload, "CURLOPT_COPYPOSTFIELDS")
    }

    /// Sets a push's whole time (CURLOPT_TIMEOUT_MS), at least 1, and the connection's share of it.
    func applyTimeout(_ timeoutMilliseconds: Int, to easy: CurlEasy) throws(CurlError) {
        try easy.set(
            CURLOPT_CONNECTTIMEOUT_MS, min(timeoutMilliseconds, Int(options.connectTimeout * 1000)),
            "CURLOPT_CONNECTTIMEOUT_MS")
        try easy.set(CURLOPT_TIMEOUT_MS, timeoutMilliseconds, "CURLOPT_TIMEOUT_MS")
    }
}
