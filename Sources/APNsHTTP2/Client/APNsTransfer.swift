import CCurl
import LiveActivityDomain

/// One pooled easy handle and what it captures of a response. libcurl's callbacks reach it
/// through an unretained `Unmanaged` pointer; the `APNsClient` owning the pool outlives every
/// transfer it starts and detaches them before they go.
///
/// The handle is reset before every push: libcurl resends a refused or GOAWAY'd stream at most
/// 5 times per handle *lifetime*, so a pooled handle that is never reset starts losing pushes
/// after a few GOAWAYs (measured: 6-38 of 10,000 with GOAWAY every 300 streams, none with reset).
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
    /// The header list in use and what it was built from, reused while both stay the same.
    private var headers: CurlStringList?
    private var headersBuiltFor: (authorization: String, kind: PushKind, bundleID: String, expiration: Int64)?

    init(bodyLimit: Int) throws(CurlError) {
        easy = try CurlEasy()
        self.bodyLimit = bodyLimit
    }

    /// Resets the handle and points it at `push`, clearing what the previous push left.
    func prepare(
        _ push: APNsPush, isResend: Bool, setup: TransferSetup, authorization: String, timeoutMilliseconds: Int
    ) throws(CurlError) {
        easy.reset()
        try setup.apply(
            to: easy, owner: Unmanaged.passUnretained(self).toOpaque(), kind: push.kind, timeoutMilliseconds: timeoutMilliseconds)
        try easy.set(CURLOPT_URL, string: setup.deviceURLPrefix + push.token.hex, "CURLOPT_URL")
        if let built = headersBuiltFor, headers != nil, built.authorization == authorization, built.kind == push.kind,
            built.bundleID == push.bundleID, !push.kind.expires || built.expiration == push.expiration
        {
            // The list in use fits this push too.
        } else {
            // The previous list is freed only when replaced here, after libcurl stopped using it.
            headers = try CurlStringList(setup.headers(for: push, authorization: authorization))
            headersBuiltFor = (authorization, push.kind, push.bundleID, push.expiration)
        }
        if let headers { try easy.set(CURLOPT_HTTPHEADER, list: headers, "CURLOPT_HTTPHEADER") }
        self.push = push
        self.isResend = isResend
        holdsUploadBuffer = true
        clearResponse()
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

    /// What libcurl reported for the finished transfer.
    func finished(result: CURLcode) -> FinishedTransfer {
        FinishedTransfer(
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
