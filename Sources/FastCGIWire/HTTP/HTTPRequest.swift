/// A request as the transport (FastCGI or CGI) hands it over, with nothing of the wire left in it.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The path without the query string.
    public var path: String
    /// `CONTENT_TYPE`, when the client sent one.
    public var contentType: String?
    /// The body, read up to the transport's body limit + 1 bytes (`TransportOptions.maximumBodySize`).
    public var body: [UInt8]
    /// `CONTENT_LENGTH` said more than the limit, or more bytes came than the limit allows.
    public var bodyTooLarge: Bool
    /// `LIVEACTIVITY_APNS_ENVIRONMENT`, set by an nginx location (for example under `/dev`).
    public var environmentParameter: String?

    public init(
        method: String, path: String, contentType: String? = nil, body: [UInt8] = [],
        bodyTooLarge: Bool = false, environmentParameter: String? = nil
    ) {
        self.method = method
        self.path = path
        self.contentType = contentType
        self.body = body
        self.bodyTooLarge = bodyTooLarge
        self.environmentParameter = environmentParameter
    }
}
