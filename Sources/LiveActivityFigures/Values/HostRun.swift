import LiveActivityDomain

/// One host's last recorded sweep (SPEC 5, "Several hosts"): `stats`, `/wakeup/metrics` and the
/// status page list every host that swept, so a host whose cron stopped shows while the others
/// go on (the newest run of all would hide it).
public struct HostRun: Sendable, Equatable {
    /// `LIVEACTIVITY_HOST_NAME` of the host that recorded the run.
    public var host: String
    /// Unix ms.
    public var startedAt: Int64
    public var durationMilliseconds: Int64
    /// A fault that makes the sweep exit non-zero ended it.
    public var failed: Bool

    public init(host: String, startedAt: Int64, durationMilliseconds: Int64, failed: Bool) {
        self.host = host
        self.startedAt = startedAt
        self.durationMilliseconds = durationMilliseconds
        self.failed = failed
    }

    public var finishedAt: Int64 { startedAt.addingSaturated(durationMilliseconds) }

    /// Hosts whose last run is older than this are no longer listed on the page nor watched by
    /// the alarm: a host taken out of service stops alarming a day after its last sweep.
    public static let listedForMilliseconds: Int64 = 86_400_000
}
