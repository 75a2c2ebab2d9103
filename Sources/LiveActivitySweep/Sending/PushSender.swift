import LiveActivityCore

/// One push the sweep wants delivered.
public struct PushRequest: Sendable, Equatable {
    /// The sweep's own handle for this push (an index into its due list).
    public var id: Int
    public var token: PushToken
    public var environment: APNsEnvironment
    /// `apns-expiration`, Unix seconds.
    public var expiration: Int64

    public init(id: Int, token: PushToken, environment: APNsEnvironment, expiration: Int64) {
        self.id = id
        self.token = token
        self.environment = environment
        self.expiration = expiration
    }
}

/// The answer to one push: an HTTP status with APNs's reason, or a transport failure.
public struct PushResult: Sendable, Equatable {
    public var id: Int
    /// nil when no answer came (connection refused, TLS failure, timeout).
    public var status: Int?
    public var reason: String?
    /// 410's `timestamp`, milliseconds.
    public var timestamp: Int64?
    public var apnsID: String?
    public var transportError: String?

    public init(
        id: Int, status: Int?, reason: String? = nil, timestamp: Int64? = nil, apnsID: String? = nil,
        transportError: String? = nil
    ) {
        self.id = id
        self.status = status
        self.reason = reason
        self.timestamp = timestamp
        self.apnsID = apnsID
        self.transportError = transportError
    }

    public var disposition: PushDisposition {
        PushDisposition(status: status, reason: reason, timestamp: timestamp, transportError: transportError)
    }
}

/// What sends pushes for a sweep: the libcurl HTTP/2 client, or a scripted one in tests.
public protocol PushSender: AnyObject {
    /// The JWT sent with every push that starts from now on (renewed after ExpiredProviderToken).
    func setProviderToken(_ token: String)
    /// Queues `push`.
    func enqueue(_ push: PushRequest)
    /// Blocks until at least one queued push has an answer and returns those answered so far;
    /// an empty array means nothing is queued or in flight any more. Throws only when the
    /// sender itself broke (not for a failed push).
    func nextResults() throws -> [PushResult]
    /// Drops every queued and in-flight push (a configuration fault stops the sweep).
    func cancelAll()
}
