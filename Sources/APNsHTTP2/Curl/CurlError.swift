import CCurl

/// A failed libcurl setup call (not a push's transport failure, which is an `APNsAnswer`):
/// the call, libcurl's code and its own message.
public struct CurlError: Error, CustomStringConvertible, Sendable, Equatable {
    public let operation: String
    public let code: Int
    public let message: String

    public init(operation: String, code: Int, message: String) {
        self.operation = operation
        self.code = code
        self.message = message
    }

    static func easy(_ operation: String, _ code: CURLcode) -> CurlError {
        CurlError(operation: operation, code: Int(code.rawValue), message: String(cString: curl_easy_strerror(code)))
    }

    static func multi(_ operation: String, _ code: CURLMcode) -> CurlError {
        CurlError(operation: operation, code: Int(code.rawValue), message: String(cString: curl_multi_strerror(code)))
    }

    public var description: String { "libcurl \(operation) failed (\(code)): \(message)" }
}
