import CCurl

/// A libcurl multi handle driving many easy handles over shared (HTTP/2-multiplexed) connections.
/// Cleaned up in `deinit`; its owner removes every easy handle first.
final class CurlMulti {
    let pointer: UnsafeMutableRawPointer
    /// The sockets of this handle's connections, for easy handles to report to (`ConnectionSockets.observe`).
    let sockets = ConnectionSockets()

    init() throws(CurlError) {
        try CurlGlobal.ensureInitialized()
        guard let handle = curl_multi_init() else { throw .easy("curl_multi_init", CURLE_FAILED_INIT) }
        pointer = handle
    }

    deinit { curl_multi_cleanup(pointer) }

    func set(_ option: CURLMoption, _ value: Int, _ name: String) throws(CurlError) {
        try check(name, liveactivity_multi_setopt_long(pointer, option, value))
    }

    func add(_ easy: CurlEasy) throws(CurlError) {
        try check("curl_multi_add_handle", curl_multi_add_handle(pointer, easy.pointer))
    }

    /// Detaches `easy`, aborting its transfer if it is still running (an HTTP/2 stream is reset,
    /// the connection stays).
    func remove(_ easy: CurlEasy) {
        curl_multi_remove_handle(pointer, easy.pointer)
    }

    /// Does whatever work is ready without blocking; returns the number of running transfers.
    @discardableResult
    func perform() throws(CurlError) -> Int {
        var running: Int32 = 0
        try check("curl_multi_perform", curl_multi_perform(pointer, &running))
        return Int(running)
    }

    /// Waits up to `milliseconds` for activity on any transfer's sockets or a libcurl timer.
    func poll(milliseconds: Int) throws(CurlError) {
        var ready: Int32 = 0
        try check("curl_multi_poll", curl_multi_poll(pointer, nil, 0, Int32(clamping: milliseconds), &ready))
    }

    /// The finished transfers since the last call: each handle and its result.
    func finishedTransfers() -> [(handle: UnsafeMutableRawPointer, result: CURLcode)] {
        var finished: [(handle: UnsafeMutableRawPointer, result: CURLcode)] = []
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(pointer, &remaining) {
            // The message is only valid until the next call (curl_multi_info_read(3)): copy it out.
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle else { continue }
            finished.append((handle, message.pointee.data.result))
        }
        return finished
    }

    private func check(_ name: String, _ code: CURLMcode) throws(CurlError) {
        guard code == CURLM_OK else { throw .multi(name, code) }
    }
}
