#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small text file read whole (settings, a key, `/proc`), through the system's calls: the
/// programs need no Foundation for it (see `SystemSupport`).
public enum FileText {
    /// Why a file could not be read, in words for the operator's one line.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case noSuchFile
        case permissionDenied
        /// Not a regular file that reads to its end (a folder, an I/O error), or over the limit.
        case notReadable
        case notUTF8

        public var description: String {
            switch self {
            case .noSuchFile: "no such file"
            case .permissionDenied: "permission denied"
            case .notReadable: "not a readable file"
            case .notUTF8: "not UTF-8 text"
            }
        }
    }

    /// The bytes of the file at `path`, at most `limit` of them (more is `notReadable`).
    public static func bytes(_ path: String, limit: Int = 16 << 20) throws(Problem) -> [UInt8] {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else {
            switch errno {
            case ENOENT, ENOTDIR: throw .noSuchFile
            case EACCES, EPERM: throw .permissionDenied
            default: throw .notReadable
            }
        }
        defer { close(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw .notReadable
            }
            bytes += chunk[..<count]
            if bytes.count > limit { throw .notReadable }
        }
    }

    /// The text of the file at `path`.
    public static func read(_ path: String, limit: Int = 16 << 20) throws(Problem) -> String {
        let bytes = try bytes(path, limit: limit)
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .notUTF8 }
        return text
    }
}
