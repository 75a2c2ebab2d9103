import Glibc
import SystemSupport

/// The settings of SPEC section 6 as one program sees them: the process environment, over the
/// `KEY=value` file named by `LIVEACTIVITY_CONFIG`. Each program reads from it only the settings
/// it uses - `Configuration` the shared ones, the sweep and the stand-in their APNs ones - so a
/// program refuses a bad value of its own settings and ignores the others.
public struct Settings: Sendable {
    /// Every name and value, the environment's winning over the file's.
    public let values: [String: String]

    /// Settings given as they are (tests).
    public init(values: [String: String]) { self.values = values }

    /// Reads `environment` (normally the process's), merged over the file it names.
    public init(environment: [String: String]) throws(ConfigurationError) {
        var values: [String: String] = [:]
        if let path = environment["LIVEACTIVITY_CONFIG"], !path.isEmpty {
            values = try ConfigFile.load(path: path)
        }
        values.merge(environment) { _, fromEnvironment in fromEnvironment }
        self.init(values: values)
    }

    /// The process's own settings.
    public static func fromProcess() throws(ConfigurationError) -> Settings {
        try Settings(environment: ProcessEnvironment.variables())
    }

    /// The value of `name` without surrounding blanks; nil when unset or empty.
    public func text(_ name: String) -> String? {
        guard let value = values[name]?.trimmingBlanks(), !value.isEmpty else { return nil }
        return value
    }

    /// The value of `name` exactly as given (PEM text keeps its line breaks); nil when unset or empty.
    public func verbatim(_ name: String) -> String? {
        values[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The value of `name`, which a program cannot run without.
    public func required(_ name: String) throws(ConfigurationError) -> String {
        guard let value = text(name) else { throw .missing(name: name) }
        return value
    }

    /// A decimal number (`12`, `-0.5`, `3e2`) in `range`, nil when unset. Hex, `nan`, `inf` and
    /// anything out of range are malformed: no value can trap a conversion later.
    public func number(_ name: String, in range: ClosedRange<Double>, unit: String) throws(ConfigurationError) -> Double? {
        guard let value = text(name) else { return nil }
        let decimal = value.wholeMatch(of: /[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d{1,3})?/) != nil
        guard decimal, let number = Double(value), number.isFinite, range.contains(number) else {
            throw .malformed(
                name: name, expected: "\(unit) from \(Self.plain(range.lowerBound)) to \(Self.plain(range.upperBound))")
        }
        return number
    }

    /// `8760` rather than `8760.0` in a message.
    private static func plain(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }

    /// A comma list of APNs environment names (`production, sandbox`; `development` is sandbox),
    /// nil when unset: each named once, in `APNsEnvironment.allCases` order. An empty item or an
    /// unknown name is malformed. The one parser of this format (`APNS_ENVIRONMENTS`, the
    /// stand-in's `STANDIN_KEY_ENVIRONMENTS`).
    public func environments(_ name: String) throws(ConfigurationError) -> [APNsEnvironment]? {
        guard let list = text(name) else { return nil }
        var named: [APNsEnvironment] = []
        for item in list.split(separator: ",", omittingEmptySubsequences: false) {
            guard let environment = APNsEnvironment(name: item.trimmingBlanks()) else {
                throw .malformed(name: name, expected: "a comma list of production and sandbox")
            }
            named.append(environment)
        }
        return APNsEnvironment.allCases.filter(named.contains)
    }

    /// A whole number in `range`, nil when unset; anything else is malformed.
    public func integer(_ name: String, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int? {
        guard let value = text(name) else { return nil }
        guard let number = Int(value), range.contains(number) else {
            throw .malformed(name: name, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}
