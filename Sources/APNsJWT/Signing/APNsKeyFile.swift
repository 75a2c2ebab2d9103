import Glibc
import LiveActivityDomain

/// The one place an APNs key file is read: the sweep's .p8 (`APNS_KEY_PATH`), and the public key
/// the stand-in checks tokens with.
public enum APNsKeyFile {
    /// Why a key file could not be read, in words for the operator's one line.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case noSuchFile
        case permissionDenied
        case notReadable
        case notUTF8

        public var description: String {
            switch self {
            case .noSuchFile: "no such file"
            case .permissionDenied: "permission denied"
            case .notReadable: "not a readable file"
            case .notUTF8: "not UTF-8 PEM text"
            }
        }
    }

    /// The text of the file at `path`.
    public static func read(_ path: String) throws(Problem) -> String {
        do throws(FileText.Problem) {
            return try FileText.read(path, limit: 1 << 20)
        } catch {
            switch error {
            case .noSuchFile: throw .noSuchFile
            case .permissionDenied: throw .permissionDenied
            case .notReadable: throw .notReadable
            case .notUTF8: throw .notUTF8
            }
        }
    }
}
