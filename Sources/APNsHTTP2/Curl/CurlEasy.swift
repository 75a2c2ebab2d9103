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

    // MARK: - Options

    func set(_ option: CURLoption, _ value: Int, _ name: String) throws(CurlError) {
        try check(name, liveactivity_easy_setopt_long(pointer, option, value))
    }

    func set(_ option: CURLoption, string: String, _ name: String) throws(CurlError) {
        try check(name, string.withCString { liveactivity_easy_setopt_string(pointer, option, $0) })
    }

    func set(_ option: CURLoption, pointer value: UnsafeRawPointer?, _ name: String) throws(CurlError) {
        try check(name, liveactivity_easy_setopt_ptr(pointer, option, value))
    }

    func set(_ option: CURLoption, callback: DataCallback, _ name: String) throws(CurlError) {
        try check(name, liveactivity_easy_setopt_write(pointer, option, callback))
    }

    /// Points CURLOPT_HTTPHEADER at `headers`, which the caller keeps alive.
    func setHeaders(_ headers: CurlHeaderList) throws(CurlError) {
        try check("CURLOPT_HTTPHEADER", liveactivity_easy_setopt_slist(pointer, CURLOPT_HTTPHEADER, headers.pointer))
    }

    // MARK: - After a transfer

    /// The last response's HTTP status, 0 when none arrived.
    var responseCode: Int {
        var code = 0
        _ = liveactivity_easy_getinfo_long(pointer, CURLINFO_RESPONSE_CODE, &code)
        return code
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
