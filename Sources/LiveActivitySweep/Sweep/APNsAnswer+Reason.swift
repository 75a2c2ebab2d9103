import APNsHTTP2

extension APNsAnswer {
    /// The reason recorded for this answer, from a bounded vocabulary (SPEC 5, "Failure reasons"):
    /// APNs's `reason` when Apple documents it, else `HTTP<status>`; the libcurl code's name for a
    /// push that got no answer (`CURLE_OPERATION_TIMEDOUT`); `NotHTTP2` for a server that is not APNs.
    public var reason: String {
        switch self {
        case .answered(let response):
            response.reason.flatMap { APNsReasons.documented.contains($0) ? $0 : nil } ?? "HTTP\(response.status)"
        case .failed(let code), .unreachable(let code): code.name
        case .notHTTP2: "NotHTTP2"
        }
    }
}
