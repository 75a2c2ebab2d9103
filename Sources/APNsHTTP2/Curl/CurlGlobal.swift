import CCurl
import SystemSupport

/// libcurl loaded (`CurlLibrary`) and `curl_global_init` called, exactly once per process. The
/// init is not thread-safe against other libcurl calls, so every owner of a libcurl handle calls
/// `ensureInitialized()` before creating one; Swift runs a global's initializer once, under a lock.
enum CurlGlobal {
    private static let result: Result<Void, CurlError> = {
        do throws(SharedLibraryError) { try CurlLibrary.load() } catch {
            return .failure(CurlError(operation: "loading", code: -1, message: error.description))
        }
        let code = curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        return code == CURLE_OK ? .success(()) : .failure(.easy("curl_global_init", code))
    }()

    static func ensureInitialized() throws(CurlError) {
        try result.get()
    }
}
