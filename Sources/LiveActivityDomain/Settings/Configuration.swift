import Foundation

/// The settings of SPEC section 6 that the responder and the sweep share: the database and
/// SQLite, registration lifetime, the cap, the environments and the clock. The push intervals
/// are the sweep's alone (`readPushIntervals`), and the APNs settings (key, ids, host, trust,
/// concurrency, timeout) are read by the programs that use them, from the same `Settings`, so the
/// responder holds none of them.
public struct Configuration: Sendable {
    public var databasePath = "./var/liveactivity.sqlite"
    public var defaultEnvironment = APNsEnvironment.production
    /// `APNS_ENVIRONMENTS`: the environments the API accepts and the sweep pushes to (for example
    /// `production` alone for a key restricted to it). Always holds `defaultEnvironment`.
    public var enabledEnvironments = APNsEnvironment.allCases
    public var maxRegistrations = 100_000
    public var expiryHours = 8.0
    public var intervals: [ActivityType: Int] = [.charging: 300, .debug: 60]
    /// `LIVEACTIVITY_INTERVAL_MAX`: the longest interval an app may ask for, seconds.
    public var intervalMaximum = IntervalPolicy.defaultMaximumSeconds
    /// `PRAGMA synchronous` for the database (`LIVEACTIVITY_SQLITE_SYNCHRONOUS`).
    public var sqliteSynchronous = "NORMAL"
    /// `LIVEACTIVITY_BUSY_TIMEOUT_MS`: how long a writer waits for the database lock.
    public var busyTimeoutMilliseconds: Int32 = 5000
    /// `LIVEACTIVITY_SQLITE_MAX_PAGES`: a ceiling on the database's size in pages (4 KiB each),
    /// past which writes fail as on a full disk. For tests of that fault, and for operators who
    /// want a hard size limit on a shared disk. nil: no ceiling of our own.
    public var sqliteMaxPages: Int?
    public var clock = Clock()
    /// `LIVEACTIVITY_MONITOR_FROM`: who besides the host itself may read status, health and
    /// metrics. The responder's alone (`readMonitorAccess`).
    public var monitorAccess = MonitorAccess()

    /// Defaults only; tests start from here.
    public init() {}

    /// Reads `environment` (normally the process's), merged over the file it names.
    public init(environment: [String: String]) throws(ConfigurationError) {
        try self.init(settings: Settings(environment: environment))
    }

    /// The process's own configuration.
    public static func fromProcess() throws(ConfigurationError) -> Configuration {
        try Configuration(settings: Settings.fromProcess())
    }

    /// Reads the shared settings; a malformed one is an error naming it.
    public init(settings: Settings) throws(ConfigurationError) {
        if let path = settings.text("LIVEACTIVITY_DB") { databasePath = path }
        if let name = settings.text("APNS_ENVIRONMENT") {
            guard let environment = APNsEnvironment(name: name) else {
                throw .malformed(name: "APNS_ENVIRONMENT", expected: "production or sandbox")
            }
            defaultEnvironment = environment
        }
        if let enabled = try settings.environments("APNS_ENVIRONMENTS") { enabledEnvironments = enabled }
        guard enabledEnvironments.contains(defaultEnvironment) else {
            throw .malformed(
                name: "APNS_ENVIRONMENT",
                expected:
                    "an environment APNS_ENVIRONMENTS enables (\(enabledEnvironments.map(\.rawValue).joined(separator: ",")))")
        }
        if let cap = try settings.integer("LIVEACTIVITY_MAX_REGISTRATIONS", in: 1...100_000_000) { maxRegistrations = cap }
        // Above zero (nothing would ever be pushed) and at most a year.
        if let hours = try settings.number("LIVEACTIVITY_EXPIRY_HOURS", in: 0.01...8760, unit: "hours") {
            expiryHours = hours
        }
        if let level = settings.text("LIVEACTIVITY_SQLITE_SYNCHRONOUS") {
            guard ["OFF", "NORMAL", "FULL", "EXTRA"].contains(level.uppercased()) else {
                throw .malformed(name: "LIVEACTIVITY_SQLITE_SYNCHRONOUS", expected: "OFF, NORMAL, FULL or EXTRA")
            }
            sqliteSynchronous = level.uppercased()
        }
        if let timeout = try settings.integer("LIVEACTIVITY_BUSY_TIMEOUT_MS", in: 0...600_000) {
            busyTimeoutMilliseconds = Int32(timeout)
        }
        if let pages = try settings.integer("LIVEACTIVITY_SQLITE_MAX_PAGES", in: 16...1_073_741_823) { sqliteMaxPages = pages }
        clock = try Clock(settings: settings)
    }

    /// Reads the push intervals (`LIVEACTIVITY_INTERVAL_CHARGING`, `_DEBUG`, `_MAX`, seconds).
    /// Read by the programs that apply them - a sweep run, the responder (it answers with the
    /// effective interval and matches acks by it) and `history` - and by no other: a program
    /// ignores the settings it does not use (SPEC 6).
    public mutating func readPushIntervals(_ settings: Settings) throws(ConfigurationError) {
        if let seconds = try settings.integer("LIVEACTIVITY_INTERVAL_CHARGING", in: 1...86_400) { intervals[.charging] = seconds }
        if let seconds = try settings.integer("LIVEACTIVITY_INTERVAL_DEBUG", in: 1...86_400) { intervals[.debug] = seconds }
        if let seconds = try settings.integer("LIVEACTIVITY_INTERVAL_MAX", in: IntervalPolicy.requestable) {
            intervalMaximum = seconds
        }
    }

    /// Reads `LIVEACTIVITY_MONITOR_FROM`, which only the responder uses (SPEC 3, 6).
    public mutating func readMonitorAccess(_ settings: Settings) throws(ConfigurationError) {
        monitorAccess = try MonitorAccess(settings: settings)
    }

    /// The bounds an app's `interval` is clamped to.
    public var intervalPolicy: IntervalPolicy { IntervalPolicy(typeSeconds: intervals, maximumSeconds: intervalMaximum) }

    /// The push interval of `type`, in milliseconds.
    public func intervalMilliseconds(_ type: ActivityType) -> Int64 {
        Int64(intervals[type] ?? 300) * 1000
    }

    /// The registration lifetime, in milliseconds.
    public var expiryMilliseconds: Int64 { Int64(expiryHours * 3_600_000) }
}
