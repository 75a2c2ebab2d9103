/// Arithmetic that holds at the type's bounds instead of trapping, for numbers read back from a
/// database (SPEC 7: values read back are input too). A planted counter of 2^63 - 1 makes a
/// figure read "9223372036854775807", never a crash of the sweep or the responder.
extension FixedWidthInteger {
    /// `self + other`, held at `max` (or `min`).
    public func addingSaturated(_ other: Self) -> Self {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }

    /// `self - other`, held at `max` (or `min`).
    public func subtractingSaturated(_ other: Self) -> Self {
        let (difference, overflow) = subtractingReportingOverflow(other)
        guard overflow else { return difference }
        return other < 0 ? .max : .min
    }

    /// `-self`, held at `max` (`-min` is one past it).
    public func negatedSaturated() -> Self { Self(0).subtractingSaturated(self) }

    /// `self * other`, held at `max` (or `min`).
    public func multipliedSaturated(by other: Self) -> Self {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        guard overflow else { return product }
        return (self < 0) == (other < 0) ? .max : .min
    }
}

extension Sequence where Element: FixedWidthInteger {
    /// The sum, held at the type's bounds.
    public func saturatedSum() -> Element { reduce(0) { $0.addingSaturated($1) } }
}

extension FixedWidthInteger {
    /// `value` rounded toward zero, held at the type's bounds; 0 for NaN. `Int64(_: Double)`
    /// traps beyond the bounds, which a share or a delay computed from planted counts reaches.
    public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= Double(Self.max) {
            self = .max
        } else if value <= Double(Self.min) {
            self = .min
        } else {
            self.init(value)
        }
    }
}
