import CCurl

/// A `curl_slist` of lines (request headers, CONNECT_TO entries), freed in `deinit`. The easy
/// handle that points at it must be given a new list (or be reset or cleaned up) before this one goes.
final class CurlStringList {
    let pointer: UnsafeMutablePointer<curl_slist>

    /// Builds the list from `lines`; there must be at least one.
    init(_ lines: [String]) throws(CurlError) {
        var list: UnsafeMutablePointer<curl_slist>?
        for line in lines {
            // curl_slist_append copies the text; on failure the old list is left intact.
            guard let appended = curl_slist_append(list, line) else {
                curl_slist_free_all(list)
                throw .easy("curl_slist_append", CURLE_OUT_OF_MEMORY)
            }
            list = appended
        }
        guard let list else { throw CurlError(operation: "curl_slist_append", code: 0, message: "no lines") }
        pointer = list
    }

    deinit { curl_slist_free_all(pointer) }
}
