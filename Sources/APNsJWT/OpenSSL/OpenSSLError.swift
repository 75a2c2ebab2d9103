import COpenSSL

/// A failed libcrypto call: what we were doing and OpenSSL's own error queue, drained.
public struct OpenSSLError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The operation that failed, for example `EVP_DigestSign`.
    public let operation: String
    /// OpenSSL's messages, oldest first, joined by `; ` (may be empty).
    public let message: String

    public init(operation: String, message: String) {
        self.operation = operation
        self.message = message
    }

    /// Builds the error for `operation` from the thread's OpenSSL error queue, emptying it.
    static func drain(_ operation: String) -> OpenSSLError {
        OpenSSLError(operation: operation, message: drainQueue())
    }

    /// Empties the thread's error queue and returns its messages, so a later failure reports
    /// only its own causes.
    @discardableResult
    static func drainQueue() -> String {
        var messages: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return messages.joined(separator: "; ")
    }

    public var description: String {
        message.isEmpty ? "OpenSSL \(operation) failed" : "OpenSSL \(operation) failed: \(message)"
    }
}
