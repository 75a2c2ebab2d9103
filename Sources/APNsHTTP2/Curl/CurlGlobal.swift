import CCurl

/// `curl_global_init`, exactly once per process. It is not thread-safe against other libcurl
/// calls, so every owner of a libcurl handle calls `ensureInitialized()` before creating one;
/// Swift runs a global's initializer once, under a lock.
enum CurlGlobal {
    private static let result: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    static func ensureInitialized() throws(CurlError) {
        guard result == CURLE_OK else { throw .easy("curl_global_init", result) }
    }
}
