import Glibc
import SystemSupport

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
    /// `LIVEACTIVITY_MAX_UNPROVEN`: registrations never answered 200 that may be stored at once
    /// (SPEC 5, guard): junk the guard must hold cannot fill the table and lock real devices out.
    public var maxUnproven = 10_000
    public var expiryHours = 8.0
    /// The push intervals (`LIVEACTIVITY_INTERVAL_<TYPE>`, `LIVEACTIVITY_INTERVAL_MAX`), once read
    /// (`readPushIntervals`); the types' defaults until then.
    public var intervalPolicy = IntervalPolicy()
    /// `PRAGMA synchronous` for the database (`LIVEACTIVITY_SQLITE_SYNCHRONOUS`).
    public var sqliteSynchronous = "NORMAL"
    /// `LIVEACTIVITY_BUSY_TIMEOUT_MS`: how long a writer waits for the database lock.
    public var busyTimeoutMilliseconds: Int32 = 5000
    /// `LIVEACTIVITY_SQLITE_MAX_PAGES`: a ceiling on the database's size in pages (4 KiB each),
    /// past which writes fail as on a full disk. For tests of that fault, and for operators who
    /// want a hard size limit on a shared disk. nil: no ceiling of our own.
    public var sqliteMaxPages: Int?
    public var clock = Clock()
    /// `LIVEACTIVITY_HOST_NAME`: this host's name in leases, the run history and the status page.
    public var hostName = Configuration.systemHostName()
    /// `LIVEACTIVITY_LEASE_SECONDS`: how long a row a sweep claimed is its host's (PostgreSQL).
    public var leaseSeconds = 120
    /// `LIVEACTIVITY_SWEEP_DIR`: the sweep's private folder on this host; nil: the engine's default
    /// (`<db>.sweep` beside a SQLite database, `./var/liveactivity.sweep` on PostgreSQL).
    public var sweepDirectory: String?
    /// `LIVEACTIVITY_MONITOR_FROM`: who besides the host itself may read status, health and
    /// metrics. The responder's alone (`readMonitorAccess`).
    public var monitorAccess = MonitorAccess()
    /// The further apps' environments (`readApps`); the default app's are the two above.
    private var appEnvironments: [AppName: AppEnvironments] = [:]

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
        (enabledEnvironments, defaultEnvironment) = try Self.environments(settings, app: .defaultApp)
        if let cap = try settings.integer("LIVEACTIVITY_MAX_REGISTRATIONS", in: 1...100_000_000) { maxRegistrations = cap }
        if let cap = try settings.integer("LIVEACTIVITY_MAX_UNPROVEN", in: 1...100_000_000) { maxUnproven = cap }
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

    /// `app`'s environments (SPEC 6): `APNS_ENVIRONMENTS` and `APNS_ENVIRONMENT` of `settings`,
    /// a view of one app's (`Settings.forApp`); an error names the app's own setting.
    public static func environments(_ settings: Settings, app: AppName) throws(ConfigurationError) -> (
        enabled: [APNsEnvironment], default: APNsEnvironment
    ) {
        var defaultEnvironment = APNsEnvironment.production
        var enabled = APNsEnvironment.allCases
        if let name = settings.text("APNS_ENVIRONMENT") {
            guard let environment = APNsEnvironment(name: name) else {
                throw .malformed(name: app.settingName("APNS_ENVIRONMENT"), expected: "production or sandbox")
            }
            defaultEnvironment = environment
        }
        do {
            if let named = try settings.environments("APNS_ENVIRONMENTS") { enabled = named }
        } catch .malformed(_, let expected) {
            throw .malformed(name: app.settingName("APNS_ENVIRONMENTS"), expected: expected)
        }
        guard enabled.contains(defaultEnvironment) else {
            throw .malformed(
                name: app.settingName("APNS_ENVIRONMENT"),
                expected: "an environment \(app.settingName("APNS_ENVIRONMENTS")) enables "
                    + "(\(enabled.map(\.rawValue).joined(separator: ",")))")
        }
        return (enabled, defaultEnvironment)
    }

    /// Reads the apps served and each one's environments (SPEC 6 "Several apps"): what the
    /// responder needs of them, never a key. The default app's are the plain settings'.
    public mutating func readApps(_ settings: Settings) throws(ConfigurationError) {
        var environments: [AppName: AppEnvironments] = [:]
        for app in try settings.apps() {
            let (enabled, chosen) = try Self.environments(settings.forApp(app), app: app)
            environments[app] = AppEnvironments(enabled: enabled, defaultEnvironment: chosen)
        }
        appEnvironments = environments
    }

    /// Each app's environments, the default app's included; the default app alone until
    /// `readApps`.
    public var apps: [AppName: AppEnvironments] {
        var apps = appEnvironments
        apps[.defaultApp] = AppEnvironments(enabled: enabledEnvironments, defaultEnvironment: defaultEnvironment)
        return apps
    }

    /// The environments any app enables: those a sweep reads due targets of.
    public var servedEnvironments: [APNsEnvironment] {
        let enabled = Set(apps.values.flatMap(\.enabled))
        return APNsEnvironment.allCases.filter(enabled.contains)
    }

    /// Reads the settings only a sweep uses (SPEC 5, 6): this host's name, the lease, the sweep's
    /// folder. The responder ignores them, as every program ignores the settings it does not use.
    public mutating func readSweepSettings(_ settings: Settings) throws(ConfigurationError) {
        if let name = settings.text("LIVEACTIVITY_HOST_NAME") {
            guard Self.isHostName(name) else {
                throw .malformed(name: "LIVEACTIVITY_HOST_NAME", expected: "1 to 64 letters, digits, dots, dashes or underscores")
            }
            hostName = name
        }
        if let seconds = try settings.integer("LIVEACTIVITY_LEASE_SECONDS", in: 10...86_400) { leaseSeconds = seconds }
        sweepDirectory = settings.text("LIVEACTIVITY_SWEEP_DIR")
    }

    /// A host name as leases and the status page show it: short, and nothing a log or a page
    /// would have to escape.
    public static func isHostName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            }
    }

    /// The system's host name, cut to a name `isHostName` accepts (`localhost` when there is none).
    public static func systemHostName() -> String {
        let name = ProcessEnvironment.hostName().split(separator: ".").first.map(String.init) ?? ""
        let kept = String(
            String.UnicodeScalarView(name.unicodeScalars.filter { $0.isASCII && isHostName(String($0)) }).prefix(64))
        return kept.isEmpty ? "localhost" : kept
    }

    /// Reads the push intervals (`LIVEACTIVITY_INTERVAL_CHARGING`, `_DEBUG`, `_MAX`, `_WIDGETS`, seconds).
    /// Read by the programs that apply them - a sweep run, the responder (it answers with the
    /// effective interval and matches acks by it) and `history` - and by no other: a program
    /// ignores the settings it does not use (SPEC 6).
    public mutating func readPushIntervals(_ settings: Settings) throws(ConfigurationError) {
        for type in ActivityType.allCases {
            let name = "LIVEACTIVITY_INTERVAL_" + type.rawValue.uppercased()
            if let seconds = try settings.integer(name, in: IntervalPolicy.requestable) {
                intervalPolicy.typeSeconds[type] = seconds
            }
        }
        if let seconds = try settings.integer("LIVEACTIVITY_INTERVAL_MAX", in: IntervalPolicy.requestable) {
            intervalPolicy.maximumSeconds = seconds
        }
        if let count = try settings.integer("LIVEACTIVITY_STRETCH_AFTER", in: IntervalPolicy.stretchAfterRange) {
            intervalPolicy.stretchAfter = count
        }
        for kind in PushKind.all {
            guard let name = kind.intervalSetting else { continue }
            if let seconds = try settings.integer(name, in: IntervalPolicy.requestable) {
                intervalPolicy.kindSeconds[kind] = seconds
            }
        }
    }

    /// Reads `LIVEACTIVITY_MONITOR_FROM`, which only the responder uses (SPEC 3, 6).
    public mutating func readMonitorAccess(_ settings: Settings) throws(ConfigurationError) {
        monitorAccess = try MonitorAccess(settings: settings)
    }

    /// The registration lifetime, in milliseconds.
    public var expiryMilliseconds: Int64 { Int64(expiryHours * 3_600_000) }
}
