/// The database was written by a newer build (its schema version is above this build's): this
/// build cannot know what the newer schema means, so it refuses it rather than migrate it.
public struct SchemaTooNewError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The database's schema version.
    public let found: Int64
    /// The newest version this build writes.
    public let supported: Int64

    public init(found: Int64, supported: Int64) {
        self.found = found
        self.supported = supported
    }

    public var description: String { "database schema version \(found) is newer than this build (\(supported))" }
}
