/// Who may read status, health and metrics (SPEC 3): the host itself (loopback), and the
/// networks of `LIVEACTIVITY_MONITOR_FROM`. The responder asks this itself, so a location written
/// without nginx's `allow` lines, a CGI server or a client of the FastCGI socket does not publish
/// them.
public struct MonitorAccess: Sendable, Equatable {
    /// The most networks `LIVEACTIVITY_MONITOR_FROM` may name (SPEC 6: every setting is bounded).
    public static let maximumNetworks = 32
    /// Besides loopback.
    public var networks: [IPNetwork]

    public init(networks: [IPNetwork] = []) { self.networks = networks }

    /// Reads `LIVEACTIVITY_MONITOR_FROM`: networks separated by commas or blanks; unset is
    /// loopback only. A malformed item or too many is an error naming the setting.
    public init(settings: Settings) throws(ConfigurationError) {
        guard let list = settings.text("LIVEACTIVITY_MONITOR_FROM") else {
            self.init()
            return
        }
        let items = list.split { $0 == "," || $0 == " " || $0 == "\t" }
        let parsed = items.compactMap { IPNetwork(String($0)) }
        guard parsed.count == items.count, (1...Self.maximumNetworks).contains(parsed.count) else {
            throw .malformed(
                name: "LIVEACTIVITY_MONITOR_FROM",
                expected: "up to \(Self.maximumNetworks) networks such as 10.0.0.0/8 or 2001:db8::/32, separated by commas")
        }
        self.init(networks: parsed)
    }

    /// Whether the client `remoteAddress` (REMOTE_ADDR as the request carries it) may read them.
    /// Without one, `absentIsLocal` decides: true where nothing stands between the client and
    /// the program (a CGI run from a shell, as `stats --html` is run), false where a web server
    /// forwards the request and did not say who asked (FastCGI), which is a stranger until it does.
    public func allows(remoteAddress: String?, absentIsLocal: Bool) -> Bool {
        guard let remoteAddress, !remoteAddress.isEmpty else { return absentIsLocal }
        guard let address = IPAddress(remoteAddress) else { return false }
        return address.isLoopback || networks.contains { $0.contains(address) }
    }
}
