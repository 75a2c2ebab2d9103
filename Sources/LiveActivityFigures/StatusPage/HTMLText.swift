import LiveActivityDomain

/// Text for the status page: every string that reaches the HTML passes `escape`, and numbers are
/// written without Foundation's locale-dependent formatting.
package enum HTMLText {
    /// The five characters markup gives meaning to; control characters have no place on the page
    /// (reasons are a bounded vocabulary), so each becomes U+FFFD, as do those beyond ASCII a
    /// reader could be fooled by (bidirectional overrides, line separators; SPEC 7).
    private static let escapes = EscapeTable(
        controls: { _ in "\u{FFFD}" },
        named: ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"],
        beyondASCII: { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: "\u{FFFD}"
            default: nil
            }
        })

    /// `text` safe as element content and as a quoted attribute value.
    package static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        escapes.escape(text, into: &out)
        return out
    }

    /// `100,000`: digits in groups of three, for reading at a glance.
    package static func count(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return (value < 0 ? "-" : "") + out
    }

    /// `12.5%` for a share from 0 to 1, one decimal.
    package static func percent(_ share: Double) -> String {
        let tenths = Int64(saturating: (share * 1000).rounded())
        return "\(tenths / 10).\(tenths % 10)%"
    }

    /// `1.2 s` or `340 ms`.
    package static func duration(_ milliseconds: Int64) -> String {
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        let tenths = milliseconds.addingSaturated(50) / 100
        return "\(tenths / 10).\(tenths % 10) s"
    }

    /// `42 s`, `12 min`, `3 h 5 min`, `2 d 4 h`: how long ago, for a person.
    package static func age(_ milliseconds: Int64) -> String {
        let seconds = max(0, milliseconds / 1000)
        if seconds < 120 { return "\(seconds) s" }
        if seconds < 7200 { return "\(seconds / 60) min" }
        if seconds < 172_800 { return "\(seconds / 3600) h \(seconds % 3600 / 60) min" }
        return "\(seconds / 86_400) d \(seconds % 86_400 / 3600) h"
    }
}
