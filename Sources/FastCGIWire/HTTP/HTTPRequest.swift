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
    /// Every parameter of the request (FastCGI params or the CGI environment), for what the fields
    /// above do not cover: headers as `HTTP_*`, `QUERY_STRING`, or a web server's own settings.
    public var parameters: RequestParameters
    /// FastCGI or CGI: the wire sets it; a request made in-process (tests) is as a CGI run by hand.
    public var gateway: Gateway

    public init(
        method: String, path: String, contentType: String? = nil, body: [UInt8] = [],
        bodyTooLarge: Bool = false, parameters: RequestParameters = RequestParameters([:]), gateway: Gateway = .cgi
    ) {
        self.method = method
        self.path = path
        self.contentType = contentType
        self.body = body
        self.bodyTooLarge = bodyTooLarge
        self.parameters = parameters
        self.gateway = gateway
    }
}
