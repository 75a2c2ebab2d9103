extension StringProtocol {
    /// Without the blanks (spaces, tabs and other white space that is not a line end) at either
    /// end: a settings line's padding. Foundation's `trimmingCharacters(in: .whitespaces)`, kept
    /// here so the programs need no Foundation (see `SystemThread`).
    public func trimmingBlanks() -> String {
        trimming { $0.isWhitespace && !$0.isNewline }
    }

    /// Without any white space, line ends included, at either end.
    public func trimmingWhitespace() -> String {
        trimming(\.isWhitespace)
    }

    private func trimming(_ drop: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !drop($0) }), let last = lastIndex(where: { !drop($0) }) else { return "" }
        return String(self[first...last])
    }
}
