/// The release both programs say they are (`--version`): the Debian package's version, which
/// `debian/changelog` gives; `ReleaseVersionTests` keeps the two equal.
public enum ReleaseVersion {
    public static let current = "1.0.0"

    /// `liveactivity-fcgi 1.0.0`: what `--version` prints.
    public static func line(program: String) -> String { "\(program) \(current)" }
}
