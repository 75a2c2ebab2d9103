import Foundation

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
        let files = FileManager.default
        guard files.fileExists(atPath: path) else { throw .noSuchFile }
        guard files.isReadableFile(atPath: path) else { throw .permissionDenied }
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else { throw .notReadable }
        guard let text = String(data: data, encoding: .utf8) else { throw .notUTF8 }
        return text
    }
}
