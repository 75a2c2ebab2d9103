import CCurl

/// One pooled easy handle and what it captures of a response. libcurl's callbacks reach it
/// through an unretained `Unmanaged` pointer; the `APNsClient` owning the pool outlives every
/// transfer it starts and detaches them before they go.
final class APNsTransfer {
    let easy: CurlEasy
    /// The push on this handle while it is attached to the multi handle.
    var push: APNsPush?
    private(set) var body: [UInt8] = []
    private(set) var apnsID: String?
    private let bodyLimit: Int
    /// The header list in use and what it was built from, reused while both stay the same.
    private var headers: CurlHeaderList?
    private var headersBuiltFor: (authorization: String, expiration: Int64)?

    /// Sets up everything that is the same for every push; per push only URL and headers change,
    /// so the handle is never reset.
    init(options: APNsClientOptions, payload: String) throws(CurlError) {
        easy = try CurlEasy()
        bodyLimit = options.responseBodyLimit
        let me = Unmanaged.passUnretained(self).toOpaque()
        try easy.set(CURLOPT_PRIVATE, pointer: me, "CURLOPT_PRIVATE")
        try easy.set(CURLOPT_WRITEDATA, pointer: me, "CURLOPT_WRITEDATA")
        try easy.set(CURLOPT_WRITEFUNCTION, callback: Self.onBody, "CURLOPT_WRITEFUNCTION")
        try easy.set(CURLOPT_HEADERDATA, pointer: me, "CURLOPT_HEADERDATA")
        try easy.set(CURLOPT_HEADERFUNCTION, callback: Self.onHeader, "CURLOPT_HEADERFUNCTION")
        try easy.set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS, "CURLOPT_HTTP_VERSION")
        // Wait for the shared connection to say it multiplexes rather than open another one.
        try easy.set(CURLOPT_PIPEWAIT, 1, "CURLOPT_PIPEWAIT")
        try easy.set(CURLOPT_PROTOCOLS_STR, string: "https", "CURLOPT_PROTOCOLS_STR")
        // APNs requires TLS 1.2 or later (APNS.md section 1).
        try easy.set(CURLOPT_SSLVERSION, CURL_SSLVERSION_TLSv1_2, "CURLOPT_SSLVERSION")
        try easy.set(CURLOPT_NOSIGNAL, 1, "CURLOPT_NOSIGNAL")
        try easy.set(CURLOPT_CONNECTTIMEOUT_MS, Int(options.connectTimeout * 1000), "CURLOPT_CONNECTTIMEOUT_MS")
        try easy.set(CURLOPT_TIMEOUT_MS, Int(options.requestTimeout * 1000), "CURLOPT_TIMEOUT_MS")
        try easy.set(CURLOPT_TCP_KEEPALIVE, 1, "CURLOPT_TCP_KEEPALIVE")
        try easy.set(CURLOPT_TCP_KEEPIDLE, options.keepaliveSeconds, "CURLOPT_TCP_KEEPIDLE")
        try easy.set(CURLOPT_TCP_KEEPINTVL, options.keepaliveSeconds, "CURLOPT_TCP_KEEPINTVL")
        if let caFile = options.caFile {
            try easy.set(CURLOPT_CAINFO, string: caFile, "CURLOPT_CAINFO")
        }
        // The payload never changes: POST it from libcurl's own copy.
        let bytes = Array(payload.utf8)
        try easy.set(CURLOPT_POSTFIELDSIZE, bytes.count, "CURLOPT_POSTFIELDSIZE")
        try easy.set(CURLOPT_COPYPOSTFIELDS, string: payload, "CURLOPT_COPYPOSTFIELDS")
    }

    /// Points the handle at `push`, clearing what the previous push left.
    func prepare(
        _ push: APNsPush, url: String, authorization: String, constantHeaders: [String]
    ) throws(CurlError) {
        try easy.set(CURLOPT_URL, string: url, "CURLOPT_URL")
        if headersBuiltFor?.authorization != authorization || headersBuiltFor?.expiration != push.expiration {
            let list = try CurlHeaderList(
                constantHeaders + ["authorization: " + authorization, "apns-expiration: \(push.expiration)"])
            try easy.setHeaders(list)
            headers = list  // the previous list is freed only now, after libcurl stopped pointing at it
            headersBuiltFor = (authorization, push.expiration)
        }
        self.push = push
        body.removeAll(keepingCapacity: true)
        apnsID = nil
    }

    /// The answer of the finished transfer, from libcurl's result code.
    func answer(result: CURLcode) -> APNsAnswer {
        guard result == CURLE_OK else { return .failed(CurlCode(result)) }
        let status = easy.responseCode
        guard status > 0 else { return .failed(.gotNothing) }
        return .answered(APNsResponse(status: status, body: body, apnsID: apnsID))
    }

    // MARK: - libcurl callbacks (capture nothing; the owner comes in through userdata)

    private static let onBody: CurlEasy.DataCallback = { data, size, count, userdata in
        let length = size * count
        guard let data, let userdata else { return length }
        let transfer = Unmanaged<APNsTransfer>.fromOpaque(userdata).takeUnretainedValue()
        let room = max(0, transfer.bodyLimit - transfer.body.count)
        if room > 0 {
            let bytes = UnsafeRawBufferPointer(start: data, count: min(room, length))
            transfer.body.append(contentsOf: bytes)
        }
        // Accept (and drop) the rest: returning less than `length` would abort the transfer.
        return length
    }

    private static let onHeader: CurlEasy.DataCallback = { data, size, count, userdata in
        let length = size * count
        guard let data, let userdata else { return length }
        let transfer = Unmanaged<APNsTransfer>.fromOpaque(userdata).takeUnretainedValue()
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            transfer.apnsID = nil  // a new response (after an interim one) starts over
        } else if let colon = line.firstIndex(of: ":"),
            line[..<colon].lowercased() == "apns-id"
        {
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            transfer.apnsID = value.isEmpty ? nil : value
        }
        return length
    }
}
