import FastCGIWire
import LiveActivityFigures

extension HTTPResponse {
    /// The status page's answer (SPEC 3): never cached, nothing loaded or run beyond the page
    /// itself. No `Access-Control-Allow-Origin`, unlike the JSON API: another site open in the
    /// operator's browser (the page reached through an SSH tunnel) must not read it.
    static func html(_ status: Int, _ page: String) -> HTTPResponse {
        HTTPResponse(
            status: status,
            headers: [
                ("Content-Type", StatusPage.contentType),
                ("Cache-Control", "no-store"),
                ("Content-Security-Policy", StatusPage.contentSecurityPolicy),
                ("X-Content-Type-Options", "nosniff"),
                ("X-Frame-Options", "DENY"),
                ("Referrer-Policy", "no-referrer"),
            ],
            body: Array(page.utf8))
    }
}
