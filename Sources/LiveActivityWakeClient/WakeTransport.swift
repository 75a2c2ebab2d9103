import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What sends the client's requests: `URLSession` (``WakeClient`` uses `URLSession.shared`
/// unless given another), or any other transport an app or a test brings.
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
