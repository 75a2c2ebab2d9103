#if canImport(Glibc)
    import Glibc
#endif

/// Which file a path names: device and inode, as `stat(2)` reports them.
///
/// A responder keeps its database open for its whole life. When an operator deletes or replaces
/// the file, the open connection goes on writing to the unlinked inode and every registration is
/// silently lost; comparing the path's identity with the one seen at open catches that.
public struct FileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64

    /// The file `path` names now; nil when there is none (deleted) or it cannot be examined.
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
