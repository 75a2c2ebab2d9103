extension HTTPRequest {
    /// How a request reached the process, which says what a request without `REMOTE_ADDR` means.
    public enum Gateway: Sendable, Equatable {
        /// Over a FastCGI connection: a web server (or any client of the socket) forwards it, and
        /// without `REMOTE_ADDR` it did not say who asked.
        case fastCGI
        /// As one CGI process: a CGI server always sets `REMOTE_ADDR` (RFC 3875 4.1.8), so
        /// without one someone on this host ran the program directly.
        case cgi
    }
}
