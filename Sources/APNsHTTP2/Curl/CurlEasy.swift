import CCurl

/// A libcurl easy handle (one transfer at a time). Cleaned up in `deinit`; must not be attached
/// to a multi handle by then.
final class CurlEasy {
    let pointer: UnsafeMutableRawPointer

    /// `size_t callback(char *data, size_t size, size_t count, void *userdata)`.
    typealias DataCallback = @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int

    init() throws(CurlError) {
        try CurlGlobal.ensureInitialized()
        guard let handle = curl_easy_init() else { throw .easy("curl_easy_init", CURLE_FAILED_INIT) }
        pointer = handle
    }

    deinit { curl_easy_cleanup(pointer) }

    /// Puts every option back to its default, and with it libcurl's count of the handle's resends
    /// of refused streams, which it caps at 5 for the handle's whole life otherwise
    /// (https://curl.se/libcurl/c/curl_easy_reset.html: connections and caches stay).
    func reset() { curl_easy_reset(pointer) }

    // MARK: - Options

    func set(_ option: CURLoption, _ value: Int, _ name: String) throws(CurlError) {
        try check(name, liveactivity_easy_setopt_long(pointer, option, value))
    }

    func set(_ option: CURLoption, string: String, _ name: String) throws(CurlError) {
        try check(name, string.withCString { liveactivity_easy_setopt_string(pointer, option, $0) })
    }

    /// A NUL-terminated string the caller owns; libcurl copies it (the URL of each push, from a
    /// buffer the transfer reuses, so that setting it allocates nothing on our side).
    func set(_ option: CURLoption, cString: UnsafePointer<CChar>, _ name: String) throws(CurlError) {
        try check(name, liveactivity_easy_setopt_string(pointer, option, cString))
    }

    func set(_ option: CURLoption, pointer value: UnsafeRawPointer?, _ name: String) throws(CurlError) {
        try check(name, liveactivity_easy_setopt_ptr(pointer, option, value))
    }

    func set(_ option: CURLoption, callback: DataCallback, _ name: String) throws(CurlError) {
        try check(name, liveactivity_easy_setopt_write(pointer, option, callback))
    }

    func set(_ option: CURLoption, sockopt callback: curl_sockopt_callback, _ name: String) throws(CurlError) {
        try check(name, liveactivity_easy_setopt_sockopt(pointer, option, callback))
    }

    func set(_ option: CURLoption, closeSocket callback: curl_closesocket_callback, _ name: String) throws(CurlError) {
        try check(name, liveactivity_easy_setopt_closesocket(pointer, option, callback))
    }

    /// Points a list option (CURLOPT_HTTPHEADER, CURLOPT_CONNECT_TO) at `list`, which the caller
    /// keeps alive while the handle may use it.
    func set(_ option: CURLoption, list: CurlStringList, _ name: String) throws(CurlError) {
        try check(name, liveactivity_easy_setopt_slist(pointer, option, list.pointer))
    }

    // MARK: - After a transfer

    /// The last response's HTTP status, 0 when none arrived.
    var responseCode: Int { longInfo(CURLINFO_RESPONSE_CODE) }

    /// The last response's HTTP version (CURL_HTTP_VERSION_2_0 is 3), 0 when none arrived.
    var httpVersion: Int { longInfo(CURLINFO_HTTP_VERSION) }

    /// Bytes of the request sent (CURLINFO_REQUEST_SIZE): 0 when it never left.
    var requestSize: Int { longInfo(CURLINFO_REQUEST_SIZE) }

    /// Bytes of the request body sent so far (CURLINFO_SIZE_UPLOAD_T).
    var uploadedBytes: Int { offsetInfo(CURLINFO_SIZE_UPLOAD_T) }

    /// Whether the transfer has sent its request or is about to (CURLINFO_PRETRANSFER_TIME_T is
    /// set): false while it waits in the multi handle for a stream or for its connection.
    var hasStarted: Bool { offsetInfo(CURLINFO_PRETRANSFER_TIME_T) > 0 }

    /// Seconds from the request's start to the transfer's end (CURLINFO_TOTAL_TIME_T less
    /// CURLINFO_PRETRANSFER_TIME_T): one round trip plus the server's time, without the connection
    /// setup or the wait for a stream.
    var requestSeconds: Double {
        Double(offsetInfo(CURLINFO_TOTAL_TIME_T) - offsetInfo(CURLINFO_PRETRANSFER_TIME_T)) / 1e6
    }

    private func offsetInfo(_ info: CURLINFO) -> Int {
        var value: curl_off_t = 0
        _ = liveactivity_easy_getinfo_off_t(pointer, info, &value)
        return Int(value)
    }

    private func longInfo(_ info: CURLINFO) -> Int {
        var value = 0
        _ = liveactivity_easy_getinfo_long(pointer, info, &value)
        return value
    }

    /// The CURLOPT_PRIVATE pointer of a handle libcurl hands back (for example from the multi's messages).
    static func privatePointer(of handle: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        var value: UnsafeMutableRawPointer?
        guard liveactivity_easy_getinfo_ptr(handle, CURLINFO_PRIVATE, &value) == CURLE_OK else { return nil }
        return value
    }

    private func check(_ name: String, _ code: CURLcode) throws(CurlError) {
        guard code == CURLE_OK else { throw .easy(name, code) }
    }
}
