import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What sends the client's requests: by default a `URLSession` of the library's own that never
/// follows a redirect to another origin (``WakeClient/defaultTransport``), or any other
/// transport an app or a test brings (it then decides about redirects itself).
public protocol WakeTransport: Sendable {
    /// Sends `request` and returns the answer's body and HTTP response.
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

extension URLSession: WakeTransport {
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (data, http)
    }
}

extension WakeClient {
    /// The transport a client uses unless given another: a URLSession whose delegate follows a
    /// redirect only within the same scheme, host and port. A 307 or 308 re-sends the body, and
    /// the body holds the device token: a redirect to another host (a hijacked DNS name, a
    /// misconfigured proxy) must not receive it. A redirect refused comes back as its 3xx,
    /// which the client reports as ``WakeClientError/unexpectedStatus(_:reason:)``.
    public static let defaultTransport: any WakeTransport = URLSession(
        configuration: .default, delegate: SameOriginRedirects(), delegateQueue: nil)
}

/// Follows a redirect only to the request's own origin.
final class SameOriginRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let from = task.originalRequest?.url
        completionHandler(Self.sameOrigin(from, request.url) ? request : nil)
    }

    /// Whether `a` and `b` share scheme, host and port (the default port of the scheme when none).
    static func sameOrigin(_ a: URL?, _ b: URL?) -> Bool {
        guard let a, let b, let schemeA = a.scheme?.lowercased(), let schemeB = b.scheme?.lowercased(),
            let hostA = a.host?.lowercased(), let hostB = b.host?.lowercased()
        else { return false }
        func port(_ url: URL, _ scheme: String) -> Int? { url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil) }
        return schemeA == schemeB && hostA == hostB && port(a, schemeA) == port(b, schemeB)
    }
}
