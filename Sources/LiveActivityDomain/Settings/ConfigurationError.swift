import SystemSupport

/// A setting that is missing or malformed: one line for the operator, naming it.
public enum ConfigurationError: Error, Equatable, CustomStringConvertible, Sendable {
    case missing(name: String)
    case malformed(name: String, expected: String)
    case unreadableFile(path: String, reason: String)
    case badLine(path: String, line: Int)
    case unreadableKey(path: String, reason: String)
    case badKey(reason: String)
    /// What the settings ask for needs a C library that could not be loaded (`needed` says what
    /// asked for it: "LIVEACTIVITY_DB names a PostgreSQL database").
    case unloadableLibrary(needed: String, error: SharedLibraryError)

    public var description: String {
        switch self {
        case .missing(let name):
            "configuration: \(name) is not set"
        case .malformed(let name, let expected):
            "configuration: \(name) is malformed (expected \(expected))"
        case .unreadableFile(let path, let reason):
            "configuration: cannot read LIVEACTIVITY_CONFIG file \(path): \(reason)"
        case .badLine(let path, let line):
            "configuration: \(path) line \(line) is not KEY=value"
        case .unreadableKey(let path, let reason):
            "configuration: cannot read APNS_KEY_PATH \(path): \(reason)"
        case .badKey(let reason):
            "configuration: APNS_KEY_PATH/APNS_KEY: \(reason)"
        case .unloadableLibrary(let needed, let error):
            "configuration: \(needed), but \(error)"
        }
    }
}
