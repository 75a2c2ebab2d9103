import Foundation

/// Every setting of SPEC section 6, read the same way by both executables: the process
/// environment, over the `KEY=value` file named by `LIVEACTIVITY_CONFIG`.
public struct Configuration: Sendable {
    public var databasePath = "./var/liveactivity.sqlite"
    public var apnsKeyID: String?
    public var apnsTeamID: String?
    public var apnsBundleID: String?
    public var apnsKeyPath: String?
    public var apnsKeyPEM: String?
    public var defaultEnvironment = APNsEnvironment.production
    /// Base URL replacing both Apple hosts (the local stand-in).
    public var apnsHost: String?
    public var apnsCAFile: String?
    public var maxRegistrations = 100_000
    public var expiryHours = 8.0
    public var intervals: [ActivityType: Int] = [.charging: 300, .debug: 60]
    /// `PRAGMA synchronous` for the database (`LIVEACTIVITY_SQLITE_SYNCHRONOUS`).
    public var sqliteSynchronous = "NORMAL"
    /// `LIVEACTIVITY_BUSY_TIMEOUT_MS`: how long a writer waits for the database lock.
    public var busyTimeoutMilliseconds: Int32 = 5000
    /// `LIVEACTIVITY_SQLITE_MAX_PAGES`: a ceiling on the database's size in pages (4 KiB each),
    /// past which writes fail as on a full disk. For tests of that fault, and for operators who
    /// want a hard size limit on a shared disk. nil: no ceiling of our own.
    public var sqliteMaxPages: Int?
    /// Pushes in flight at once per connection (`LIVEACTIVITY_APNS_CONCURRENCY`).
    public var apnsConcurrency = 100
    /// Seconds one push may take before it counts as a transport failure (`LIVEACTIVITY_APNS_TIMEOUT`).
    public var apnsTimeoutSeconds = 30
    public var clock = Clock()

    /// Defaults only; tests start from here.
    public init() {}

    /// Reads `environment` (normally the process's), merged over the file it names.
    public init(environment: [String: String]) throws(ConfigurationError) {
        var values: [String: String] = [:]
        if let path = environment["LIVEACTIVITY_CONFIG"], !path.isEmpty {
            values = try ConfigFile.load(path: path)
        }
        values.merge(environment) { _, fromEnvironment in fromEnvironment }
        try self.init(values: values)
    }

    /// The process's own configuration.
    public static func fromProcess() throws(ConfigurationError) -> Configuration {
        try Configuration(environment: ProcessInfo.processInfo.environment)
    }

    init(values: [String: String]) throws(ConfigurationError) {
        func text(_ name: String) -> String? {
            guard let value = values[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
                return nil
            }
            return value
        }
        func integer(_ name: String, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int? {
            guard let value = text(name) else { return nil }
            guard let number = Int(value), range.contains(number) else {
                throw .malformed(name: name, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }

        if let path = text("LIVEACTIVITY_DB") { databasePath = path }
        apnsKeyID = text("APNS_KEY_ID")
        apnsTeamID = text("APNS_TEAM_ID")
        apnsBundleID = text("APNS_BUNDLE_ID")
        apnsKeyPath = text("APNS_KEY_PATH")
        apnsKeyPEM = values["APNS_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        if let name = text("APNS_ENVIRONMENT") {
            guard let environment = APNsEnvironment(name: name) else {
                throw .malformed(name: "APNS_ENVIRONMENT", expected: "production or sandbox")
            }
            defaultEnvironment = environment
        }
        if let host = text("APNS_HOST") {
            guard host.hasPrefix("https://"), host.count > 8 else {
                throw .malformed(name: "APNS_HOST", expected: "a base URL such as https://127.0.0.1:8443")
            }
            apnsHost = host.hasSuffix("/") ? String(host.dropLast()) : host
        }
        apnsCAFile = text("APNS_CA_FILE")
        if let cap = try integer("LIVEACTIVITY_MAX_REGISTRATIONS", in: 1...100_000_000) { maxRegistrations = cap }
        if let hours = text("LIVEACTIVITY_EXPIRY_HOURS") {
            guard let value = Double(hours), value > 0, value <= 24 * 365 else {
                throw .malformed(name: "LIVEACTIVITY_EXPIRY_HOURS", expected: "a positive number of hours")
            }
            expiryHours = value
        }
        if let seconds = try integer("LIVEACTIVITY_INTERVAL_CHARGING", in: 1...86_400) { intervals[.charging] = seconds }
        if let seconds = try integer("LIVEACTIVITY_INTERVAL_DEBUG", in: 1...86_400) { intervals[.debug] = seconds }
        if let level = text("LIVEACTIVITY_SQLITE_SYNCHRONOUS") {
            guard ["OFF", "NORMAL", "FULL", "EXTRA"].contains(level.uppercased()) else {
                throw .malformed(name: "LIVEACTIVITY_SQLITE_SYNCHRONOUS", expected: "OFF, NORMAL, FULL or EXTRA")
            }
            sqliteSynchronous = level.uppercased()
        }
        if let timeout = try integer("LIVEACTIVITY_BUSY_TIMEOUT_MS", in: 0...600_000) {
            busyTimeoutMilliseconds = Int32(timeout)
        }
        if let pages = try integer("LIVEACTIVITY_SQLITE_MAX_PAGES", in: 16...1_073_741_823) { sqliteMaxPages = pages }
        if let window = try integer("LIVEACTIVITY_APNS_CONCURRENCY", in: 1...1000) { apnsConcurrency = window }
        if let timeout = try integer("LIVEACTIVITY_APNS_TIMEOUT", in: 1...600) { apnsTimeoutSeconds = timeout }
        if let offset = text("LIVEACTIVITY_TEST_CLOCK_OFFSET") {
            guard let seconds = Double(offset) else {
                throw .malformed(name: "LIVEACTIVITY_TEST_CLOCK_OFFSET", expected: "seconds")
            }
            clock = Clock(offsetMilliseconds: Int64(seconds * 1000))
        }
    }

    /// The push interval of `type`, in milliseconds.
    public func intervalMilliseconds(_ type: ActivityType) -> Int64 {
        Int64(intervals[type] ?? 300) * 1000
    }

    /// The registration lifetime, in milliseconds.
    public var expiryMilliseconds: Int64 { Int64(expiryHours * 3_600_000) }

    /// The SQLite options these settings ask for.
    public var sqliteOptions: SQLiteConnection.Options {
        var options = SQLiteConnection.Options()
        options.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        options.synchronous = sqliteSynchronous
        options.maxPageCount = sqliteMaxPages
        return options
    }
}
