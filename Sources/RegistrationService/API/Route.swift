/// The routes of SPEC 3, one table: what each path ends with, the methods it takes, and whether
/// it is a monitoring route (answered only to loopback or `LIVEACTIVITY_MONITOR_FROM`). The
/// responder routes on the path's end, so the same binary serves `/wakeup` under any prefix.
enum Route: Sendable, Equatable {
    case register, unregister, ack, diagnostics, health, metrics, status

    /// Path ends and their routes; the first that matches wins, so `/wakeup` comes last.
    private static let table: [(suffix: String, route: Route)] = [
        ("/wakeup/unregister", .unregister), ("/wakeup/ack", .ack), ("/wakeup/diagnostics", .diagnostics),
        ("/wakeup/health", .health),
        ("/wakeup/metrics", .metrics), ("/wakeup/status", .status), ("/wakeup", .register),
    ]

    /// The route `path` names, nil for none (404).
    static func matching(_ path: String) -> Route? {
        table.first { path.hasSuffix($0.suffix) }?.route
    }

    /// The `Allow` header of its 405.
    var allow: String {
        switch self {
        case .register, .unregister, .ack, .diagnostics: "POST"
        case .health, .metrics: "GET"
        case .status: "GET, HEAD"
        }
    }

    /// Whether it takes `method`. The monitoring routes take HEAD too: they only read.
    func accepts(_ method: String) -> Bool {
        isMonitoring ? method == "GET" || method == "HEAD" : method == "POST"
    }

    /// Status, health and metrics: the operator's, not the app's.
    var isMonitoring: Bool {
        switch self {
        case .health, .metrics, .status: true
        case .register, .unregister, .ack, .diagnostics: false
        }
    }
}
