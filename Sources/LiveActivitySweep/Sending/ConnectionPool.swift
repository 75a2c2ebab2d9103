import LiveActivityDomain

/// One connection pool of the sender (SPEC 6 "Several apps"): the pushes one signing identity
/// sends to one environment. APNs binds a connection to the team and key of its first push, so
/// the apps of one key share a pool and another key has its own.
struct ConnectionPool: Hashable {
    let identity: SigningIdentity
    let environment: APNsEnvironment
}
