import CCurl
import LiveActivityDomain

/// One pooled easy handle and what it captures of a response. libcurl's callbacks reach it
/// through an unretained `Unmanaged` pointer; the `APNsClient` owning the pool outlives every
/// transfer it starts and detaches them before they go.
///
/// Between two pushes only what differs is set again: the URL (from a buffer the transfer
/// keeps), the header list when the token, kind, app or expiration changed, the timeouts when
/// they changed. Setting every option afresh after a `curl_easy_reset` cost a push some 40
/// setopt calls, a copy of the payload and the frees and allocations behind them.
///
/// The handle is still reset when libcurl may have used its resends: libcurl 7.88 resends a
/// refused or GOAWAY'd stream at most 5 times per handle *lifetime* (`state.retrycount`, cleared
/// only by a reset), so a pooled handle that is never reset starts losing pushes after a few
/// GOAWAYs (measured: 6-38 of 10,000 with GOAWAY every 300 streams, none with reset). A resend
/// marks its connection to close and goes out on a fresh one (lib/transfer.c
/// `Curl_retry_request`), so it shows as a connection opened or closed
/// (`ConnectionSockets.changes`); a push that ended in an error or was cancelled resets too.
final class APNsTransfer {
    let easy: CurlEasy
    /// The push on this handle while it is attached to the multi handle.
    var push: APNsPush?
    /// Whether `push` is already its second try.
    private(set) var isResend = false
    /// Whether libcurl may still hold an upload buffer for `push`'s request (`releaseUploadBuffer`).
    private(set) var holdsUploadBuffer = false
    private(set) var body: [UInt8] = []
    private(set) var bodyBytes = 0
    private(set) var contentLength: Int?
    private(set) var apnsID: String?
    private let bodyLimit: Int
    /// The header list in use (shared, `TransferSetup.headerList`) and what it was made for.
    private var headers: CurlStringList?
    private var headersBuiltFor: (authorization: String, kind: PushKind, bundleID: String, expiration: Int64)?

    // What the handle holds now; nil and -1 after a reset.
    /// The kind whose options (`TransferSetup.apply`) are set on the handle.
    private var appliedKind: PushKind?
    private var appliedTimeout = -1
    private var headersOnHandle = false
    /// `TransferSetup.connectionChanges` at the last reset (or the first setup).
    private var connectionChangesAtReset = -1
    /// Set when a push on the handle ended in an error or was cancelled: reset before the next.
    private var mustReset = false
    /// The URL handed to libcurl (which copies it): the device prefix, the token, a NUL; owned
    /// here, freed in `deinit`.
    private var url = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
    private var urlPrefixCount = 0

    init(bodyLimit: Int) throws(CurlError) {
        easy = try CurlEasy()
        self.bodyLimit = bodyLimit
    }

    deinit { url.deallocate() }

    /// Points the handle at `push`, setting only what differs from the previous push, and clears
    /// what the previous push left.
    func prepare(
        _ push: APNsPush, isResend: Bool, setup: TransferSetup, authorization: String, timeoutMilliseconds: Int
    ) throws(CurlError) {
        if mustReset || connectionChangesAtReset != setup.connectionChanges {
            if appliedKind != nil { easy.reset() }
            appliedKind = nil
            appliedTimeout = -1
            headersOnHandle = false
            connectionChangesAtReset = setup.connectionChanges
            mustReset = false
        }
        if appliedKind != push.kind {
            try setup.apply(to: easy, owner: Unmanaged.passUnretained(self).toOpaque(), kind: push.kind)
            appliedKind = push.kind
        }
        if appliedTimeout != timeoutMilliseconds {
            try setup.applyTimeout(timeoutMilliseconds, to: easy)
            appliedTimeout = timeoutMilliseconds
        }
        try setURL(prefix: setup.deviceURLPrefix, token: push.token.hex)
        if let built = headersBuiltFor, headers != nil, built.authorization == authorization, built.kind == push.kind,
            built.bundleID == push.bundleID, !push.kind.expires || built.expiration == push.expiration
        {
            // The list in use fits this push too.
        } else {
            // The previous list is released only when replaced here, after libcurl stopped using it.
            let list = try setup.headerList(for: push, authorization: authorization)
            if list !== headers { headersOnHandle = false }
            headers = list
            headersBuiltFor = (authorization, push.kind, push.bundleID, push.expiration)
        }
        if !headersOnHandle, let headers {
            try easy.set(CURLOPT_HTTPHEADER, list: headers, "CURLOPT_HTTPHEADER")
            headersOnHandle = true
        }
        self.push = push
        self.isResend = isResend
        holdsUploadBuffer = true
        clearResponse()
    }

    /// Marks the handle for a reset before its next push: its push was cancelled mid-flight, or
    /// could not be handed over.
    func detach() {
        push = nil
        mustReset = true
    }

    /// Writes `prefix` (once) and `token` into the URL buffer and hands it to libcurl. Through a
    /// raw buffer: appending to an array held by the class paid an exclusivity check a byte.
    private func setURL(prefix: String, token: String) throws(CurlError) {
        let needed = prefix.utf8.count + token.utf8.count + 1
        if needed > url.count {
            url.deallocate()
            url = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: needed + 64)
            urlPrefixCount = 0
        }
        let buffer = url
        if urlPrefixCount == 0 {
            urlPrefixCount = buffer.initialize(fromContentsOf: prefix.utf8)
        }
        var end = urlPrefixCount
        for byte in token.utf8 {
            buffer[end] = byte
            end += 1
        }
        buffer[end] = 0
        try buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: end + 1) { (cString) throws(CurlError) in
            try easy.set(CURLOPT_URL, cString: cString, "CURLOPT_URL")
        }
    }

    /// Frees libcurl's upload buffer once the request's body has left; true when the transfer
    /// holds none any more (freed now or before, or no push on it).
    ///
    /// libcurl 7.88 gives a transfer its upload buffer (16 kB, the least it takes) when the
    /// request goes out and frees it only at a reset or a cleanup, so each push in flight holds
    /// one for its whole round trip (32 MB of the 2,000 held at 100 ms). Once CURLINFO_SIZE_UPLOAD_T
    /// counts the whole body, libcurl has marked the upload done and reads the buffer no more for
    /// this request (a resent request gets a new one). Setting CURLOPT_UPLOAD_BUFFERSIZE frees it
    /// up to 8.6 ("force a realloc next opportunity", lib/setopt.c); from 8.7 the option only sets
    /// the size, and libcurl keeps no such buffer per transfer.
    func releaseUploadBuffer() -> Bool {
        guard holdsUploadBuffer, let push else { return true }
        guard easy.uploadedBytes >= push.kind.payload.utf8.count else { return false }
        _ = try? easy.set(CURLOPT_UPLOAD_BUFFERSIZE, TransferSetup.uploadBufferSize, "CURLOPT_UPLOAD_BUFFERSIZE")
        holdsUploadBuffer = false
        return true
    }

    private func clearResponse() {
        body.removeAll(keepingCapacity: true)
        bodyBytes = 0
        contentLength = nil
        apnsID = nil
    }

    /// What libcurl reported for the finished transfer. One that ended in an error may have used
    /// libcurl's resends: the handle is reset before its next push.
    func finished(result: CURLcode) -> FinishedTransfer {
        if result != CURLE_OK { mustReset = true }
        return FinishedTransfer(
            result: CurlCode(result), status: easy.responseCode, httpVersion: easy.httpVersion,
            requestBytes: easy.requestSize, bodyBytes: bodyBytes, contentLength: contentLength, wasResent: isResend)
    }

    /// The response as received.
    var response: APNsResponse { APNsResponse(status: easy.responseCode, body: body, apnsID: apnsID) }

    // MARK: - libcurl callbacks (capture nothing; the owner comes in through userdata)

    static let onBody: CurlEasy.DataCallback = { data, size, count, userdata in
        let length = size * count
        guard let data, let userdata else { return length }
        let transfer = Unmanaged<APNsTransfer>.fromOpaque(userdata).takeUnretainedValue()
        transfer.bodyBytes += length
        let room = max(0, transfer.bodyLimit - transfer.body.count)
        if room > 0 {
            let bytes = UnsafeRawBufferPointer(start: data, count: min(room, length))
            transfer.body.append(contentsOf: bytes)
        }
        // Accept (and drop) the rest: returning less than `length` would abort the transfer.
        return length
    }

    static let onHeader: CurlEasy.DataCallback = { data, size, count, userdata in
        let length = size * count
        guard let data, let userdata else { return length }
        let transfer = Unmanaged<APNsTransfer>.fromOpaque(userdata).takeUnretainedValue()
        switch HeaderLine(UnsafeRawBufferPointer(start: data, count: length)) {
        case .statusLine: transfer.clearResponse()  // a new response (after an interim one) starts over
        case .apnsID(let value): transfer.apnsID = value
        case .contentLength(let value): transfer.contentLength = value
        case .other: break
        }
        return length
    }
}
