import Testing

@testable import LiveActivityDomain

/// Who may read status, health and metrics (SPEC 3): loopback, and `LIVEACTIVITY_MONITOR_FROM`.
@Suite struct MonitorAccessTests {
    @Test func loopbackIsTheHostInEveryWriting() {
        let access = MonitorAccess()
        for address in ["127.0.0.1", "127.255.0.9", "::1", "::ffff:127.0.0.1", "0:0:0:0:0:0:0:1"] {
            #expect(access.allows(remoteAddress: address, absentIsLocal: false), "\(address)")
        }
        for address in ["128.0.0.1", "10.0.0.1", "::2", "::ffff:10.0.0.1", "fe80::1", "", "localhost", "127.0.0.1 ", "::1%lo"] {
            #expect(!access.allows(remoteAddress: address, absentIsLocal: false), "\(address)")
        }
    }

    @Test func aMissingAddressIsLocalOnlyWhereNoServerStandsBetween() {
        #expect(MonitorAccess().allows(remoteAddress: nil, absentIsLocal: true))
        #expect(!MonitorAccess().allows(remoteAddress: nil, absentIsLocal: false))
    }

    @Test func theOperatorsNetworksAreMatchedByTheirPrefix() throws {
        let access = try MonitorAccess(
            settings: Settings(values: ["LIVEACTIVITY_MONITOR_FROM": " 10.8.0.0/16, 192.0.2.5 2001:db8:40::/44"]))
        #expect(access.networks.map(\.description) == ["10.8.0.0/16", "192.0.2.5", "2001:db8:40::/44"])
        for address in ["10.8.0.1", "10.8.255.255", "192.0.2.5", "::ffff:10.8.3.4", "2001:db8:4f::1"] {
            #expect(access.allows(remoteAddress: address, absentIsLocal: false), "\(address)")
        }
        for address in ["10.9.0.1", "192.0.2.6", "2001:db8:50::1", "2001:db8::1"] {
            #expect(!access.allows(remoteAddress: address, absentIsLocal: false), "\(address)")
        }
        #expect(try MonitorAccess(settings: Settings(values: [:])).networks.isEmpty)
        #expect(IPNetwork("0.0.0.0/0")?.contains(IPAddress("203.0.113.1")!) == true)
        #expect(IPNetwork("::/0")?.contains(IPAddress("203.0.113.1")!) == false)
    }

    @Test func aMalformedListIsRefusedNamingTheSetting() {
        let tooMany = (0...MonitorAccess.maximumNetworks).map { "10.0.\($0).0/24" }.joined(separator: ",")
        for value in [
            "10.0.0.0/33", "10.1.0.0/8", "10.0.0.0/", "10.0.0.0/+8", "10.0.0.0/٨", "host.example", "10.0.0.1:80", "::1/129", ",",
            tooMany,
        ] {
            #expect(throws: ConfigurationError.self, "\(value.prefix(40))") {
                try MonitorAccess(settings: Settings(values: ["LIVEACTIVITY_MONITOR_FROM": value]))
            }
        }
    }
}
