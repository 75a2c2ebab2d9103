import APNsHTTP2
import LiveActivityCore

/// What sends pushes for a sweep: the libcurl HTTP/2 client, or a scripted one in tests. Both
/// answer with the client's own `APNsCompletion`, which the sweep decides on as it is.
public protocol PushSender: AnyObject {
    /// The JWT sent with every push that starts from now on (renewed after ExpiredProviderToken).
    func setProviderToken(_ token: ProviderToken)
    /// Queues `push` for the APNs host of `environment`.
    func enqueue(_ push: APNsPush, to environment: APNsEnvironment)
    /// Blocks until at least one queued push has an answer and returns those answered so far;
    /// an empty array means nothing is queued or in flight any more. Throws only when the
    /// sender itself broke (not for a failed push).
    func nextCompletions() throws -> [APNsCompletion]
    /// Drops every queued and in-flight push (a configuration fault stops the sweep).
    func cancelAll()
}
