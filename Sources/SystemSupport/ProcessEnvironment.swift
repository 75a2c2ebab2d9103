#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the process was started with, read from the system itself (`environ`, `gethostname`):
/// the programs need no Foundation for it (see `SystemSupport`).
public enum ProcessEnvironment {
    /// The environment, `NAME=value` pairs as the process got them; of a name given twice, the
    /// first (as `getenv` reads it).
    public static func variables() -> [String: String] {
        var values: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let pair = String(cString: pointer)
            if let equals = pair.firstIndex(of: "=") {
                let name = String(pair[..<equals])
                if values[name] == nil { values[name] = String(pair[pair.index(after: equals)...]) }
            }
            entry += 1
        }
        return values
    }

    /// The system's host name (`gethostname`), "" when it has none.
    public static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The running program's file (`/proc/self/exe`), nil when the system does not say.
    public static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count)
        guard count > 0, count < buffer.count else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
