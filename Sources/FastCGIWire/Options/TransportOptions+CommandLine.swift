extension TransportOptions {
    /// A serving executable's `--help`: `synopsis` (one line each, after "usage: "), the
    /// transport's flags and `settings`. The executable prints it and exits; a library does not.
    public static func help(program: String, synopsis: [String], settings: String) -> String {
        let lines = synopsis.enumerated().map { index, line in (index == 0 ? "usage: " : "       ") + program + " " + line }
        return lines.joined(separator: "\n") + "\n\n" + usage + "\n\n" + settings
    }
}
