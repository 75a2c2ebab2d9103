import LiveActivityDomain

/// One chart of the status page as inline SVG (SPEC 3): a viewBox that scales to any width, a
/// phone's too; `role="img"` with a `<title>` naming what it shows and its latest figures; the
/// time axis in UTC hours. The numbers themselves go in the table the page sets under each chart.
/// Colours come from the page's style sheet (classes), so a dark scheme recolours them.
struct SVGChart {
    static let width = 400.0
    static let height = 150.0
    /// The plotting area inside the viewBox; the margins hold the axis labels.
    static let left = 46.0
    static let right = 394.0
    static let top = 8.0
    static let bottom = 128.0

    let id: String
    let title: String
    let xStart: Int64
    let xEnd: Int64
    /// The top of the value axis: a round number at or above the largest value.
    let yMax: Int64
    /// Writes a value of the axis (`compact` numbers by default; `50%`, `2.5 s`).
    let label: @Sendable (Int64) -> String
    private var shapes = ""

    init(
        id: String, title: String, xStart: Int64, xEnd: Int64, largest: Int64,
        label: @escaping @Sendable (Int64) -> String = SVGChart.compact
    ) {
        self.id = id
        self.title = title
        self.label = label
        self.xStart = xStart
        self.xEnd = max(xEnd, xStart + 1)
        yMax = Self.roundedUp(largest)
    }

    func x(_ milliseconds: Int64) -> Double {
        Self.left + (Self.right - Self.left) * Double(milliseconds - xStart) / Double(xEnd - xStart)
    }

    func y(_ value: Int64) -> Double {
        Self.bottom - (Self.bottom - Self.top) * Double(min(value, yMax)) / Double(yMax)
    }

    /// A line through `points` (time, value), broken where two points lie more than `maxGap`
    /// apart: a gap means no sweep ran. A point with no neighbour is a dot.
    mutating func addLine(_ points: [(at: Int64, value: Int64)], maxGap: Int64, className: String) {
        var segment: [(Double, Double)] = []
        func flush() {
            if segment.count == 1 {
                shapes += "<circle class=\"\(className)\" cx=\"\(Self.f(segment[0].0))\" cy=\"\(Self.f(segment[0].1))\" r=\"2\"/>"
            } else if segment.count > 1 {
                shapes += "<polyline class=\"\(className)\" points=\""
                shapes += segment.map { Self.f($0.0) + "," + Self.f($0.1) }.joined(separator: " ")
                shapes += "\"/>"
            }
            segment.removeAll()
        }
        var previous: Int64?
        for point in points {
            if let previous, point.at - previous > maxGap { flush() }
            segment.append((x(point.at), y(point.value)))
            previous = point.at
        }
        flush()
    }

    /// Bars of `width` ms from each start, from `low` to `high` (stacked series give each its
    /// own range), as one path per series.
    mutating func addBars(_ bars: [(start: Int64, low: Int64, high: Int64)], width: Int64, className: String) {
        let drawn = bars.filter { $0.high > $0.low }
        guard !drawn.isEmpty else { return }
        let barWidth = max(0.8, (x(xStart + width) - x(xStart)) * 0.8)
        shapes += "<path class=\"\(className)\" d=\""
        for bar in drawn {
            let top = y(bar.high)
            // A bar of a few pushes under thousands stays visible.
            let bottom = max(y(bar.low), top + 0.8)
            shapes +=
                "M\(Self.f(x(bar.start)))"
                + " \(Self.f(top))h\(Self.f(barWidth))V\(Self.f(bottom))h-\(Self.f(barWidth))Z"
        }
        shapes += "\"/>"
    }

    /// A line of text inside the plot (an empty chart says so).
    mutating func addNote(_ text: String) {
        let middle = (Self.left + Self.right) / 2
        shapes +=
            "<text class=\"note\" x=\"\(Self.f(middle))\" y=\"\(Self.f((Self.top + Self.bottom) / 2))\" text-anchor=\"middle\">\(HTMLText.escape(text))</text>"
    }

    /// The whole `<svg>`: title, value grid, time ticks every 6 hours on the hour, the shapes.
    func render() -> String {
        var out =
            "<svg role=\"img\" aria-labelledby=\"\(id)-title\" viewBox=\"0 0 \(Int(Self.width)) \(Int(Self.height))\" preserveAspectRatio=\"xMidYMid meet\">"
        out += "<title id=\"\(id)-title\">\(HTMLText.escape(title))</title>"
        var values: [Int64] = [0, yMax]
        if yMax >= 2 && yMax % 2 == 0 { values.insert(yMax / 2, at: 1) }
        for value in values {
            let at = Self.f(y(value))
            out += "<line class=\"grid\" x1=\"\(Self.f(Self.left))\" x2=\"\(Self.f(Self.right))\" y1=\"\(at)\" y2=\"\(at)\"/>"
            out +=
                "<text class=\"axis\" x=\"\(Self.f(Self.left - 4))\" y=\"\(Self.f(y(value) + 4))\" text-anchor=\"end\">\(HTMLText.escape(label(value)))</text>"
        }
        let sixHours: Int64 = 6 * 3_600_000
        var tick = xStart + (sixHours - ((xStart % sixHours) + sixHours) % sixHours) % sixHours
        while tick <= xEnd {
            let at = Self.f(x(tick))
            out +=
                "<line class=\"tick\" x1=\"\(at)\" x2=\"\(at)\" y1=\"\(Self.f(Self.bottom))\" y2=\"\(Self.f(Self.bottom + 4))\"/>"
            out +=
                "<text class=\"axis\" x=\"\(at)\" y=\"\(Self.f(Self.bottom + 16))\" text-anchor=\"middle\">\(UTCTime(milliseconds: tick).clock)</text>"
            tick += sixHours
        }
        out += shapes
        return out + "</svg>"
    }

    /// The smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times a power of ten at or above `value`
    /// (at least 1): the tallest bar fills most of the chart.
    static func roundedUp(_ value: Int64) -> Int64 {
        guard value > 1 else { return 1 }
        var scale: Int64 = 1
        while scale <= Int64.max / 1000 {
            // In tenths, so that 1.2, 1.5 and 2.5 stay whole numbers.
            for tenths in [10, 12, 15, 20, 25, 30, 40, 50, 60, 80] as [Int64]
            where tenths.multipliedSaturated(by: scale) >= value.multipliedSaturated(by: 10) {
                return tenths.multipliedSaturated(by: scale) / 10
            }
            scale *= 10
        }
        return value
    }

    /// `950`, `12k`, `1.5M`: an axis label that fits the margin.
    static func compact(_ value: Int64) -> String {
        if value >= 1_000_000 { return trimmed(Double(value) / 1_000_000) + "M" }
        if value >= 10_000 { return trimmed(Double(value) / 1000) + "k" }
        return String(value)
    }

    private static func trimmed(_ value: Double) -> String {
        let tenths = Int64(saturating: (value * 10).rounded())
        return tenths % 10 == 0 ? String(tenths / 10) : "\(tenths / 10).\(tenths % 10)"
    }

    /// A coordinate with one decimal: short, and exact enough for a 400-unit box.
    static func f(_ value: Double) -> String {
        let tenths = Int64(saturating: (value * 10).rounded())
        if tenths % 10 == 0 { return String(tenths / 10) }
        return (tenths < 0 ? "-" : "") + "\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }
}
