import APNsHTTP2
import LiveActivityDomain

/// What sends pushes for a sweep: the libcurl HTTP/2 client, or a scripted one in tests. Both
/// answer with the client's own `APNsCompletion`, which the sweep decides on as it is. Each push
/// says who signs it (`SigningIdentity`): APNs binds a connection to one team and key.
public protocol PushSender: AnyObject {
    /// Makes ready what sending needs (the libcurl sender loads libcurl), called once the sweep
    /// knows something is due and before it claims anything: a sender that cannot send fails here.
    func prepare() throws
    /// The JWT of `identity` sent with every push of it that starts from now on (renewed after
    /// ExpiredProviderToken). Set before the first push of that identity.
    func setProviderToken(_ token: ProviderToken, for identity: SigningIdentity)
    /// Every push started from now on must end by `deadline.finishBy`, and none starts after it.
    func setDeadline(_ deadline: Deadline)
    /// About `count` pushes of `identity` to `environment` are coming (queued a few thousand at a
    /// time): the sender may plan its connections for them.
    func expect(_ count: Int, to environment: APNsEnvironment, as identity: SigningIdentity)
    /// Queues `push`, signed by `identity`, for the APNs host of `environment`.
    func enqueue(_ push: APNsPush, to environment: APNsEnvironment, as identity: SigningIdentity)
    /// Pushes queued and not yet handed to the connection, to any environment.
    var queuedCount: Int { get }
    /// Waits up to about `timeoutMilliseconds` for answers and returns those that arrived, possibly
    /// none. Throws only when the sender itself broke (not for a failed push).
    func poll(timeoutMilliseconds: Int) throws -> [APNsCompletion]
    /// True when nothing is in flight, no answer waits to be returned, and nothing queued can start.
    var isIdle: Bool { get }
    /// Drops every queued and in-flight push of `scope` (a fault stopped it: an app's environment,
    /// or one kind of push there), the app's pushes being those to `bundleID`, whoever signs
    /// them; returns their ids. They have no answer.
    func cancel(_ scope: FaultScope, bundleID: String) -> [Int]
    /// Drops every queued and in-flight push, of every app and environment (the run is past its
    /// deadline); returns their ids.
    func cancelAll() -> [Int]
    /// Takes back every push not yet sent, to any environment, and returns their ids; pushes in
    /// flight go on (the time budget ran out).
    func withdrawQueued() -> [Int]
}

extension PushSender {
    /// A sender that needs nothing loaded (a test's).
    public func prepare() throws {}
}
