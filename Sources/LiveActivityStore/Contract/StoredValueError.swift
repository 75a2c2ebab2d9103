import LiveActivityDomain

/// A stored value this build does not know or cannot trust: an environment or activity type that
/// a newer build or a hand edit wrote, a count or interval out of any range this build writes.
/// Values read back are input too (SPEC 7): reading one is an error naming it, not a guess (a
/// guess of `.production` would push a sandbox token to the wrong host and delete it on the
/// BadDeviceToken answer) and never a crash (an interval of 2^62 s overflowed the sweep's
/// arithmetic on every run). The sweep skips such a row with one line; the API answers a fault.
public struct StoredValueError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `table.column`.
    public let column: String
    public let value: String?

    public init(column: String, value: String?) {
        self.column = column
        self.value = value
    }

    public var description: String {
        "the database holds \(column) \(value.map { OutsideText.quoted($0, limit: 40) } ?? "NULL"), which this build does not know"
    }
}

/// Reading the registrations' columns back, checked: every engine reads a row through these, so
/// what counts as a value this build can use is decided once.
public enum StoredValue {
    /// Stored times (Unix ms): from 1970 to the year 10,000, so no sum of two overflows.
    public static let times: ClosedRange<Int64> = 0...253_402_300_799_999
    /// Failures in a row: one a minute for a year is far fewer.
    public static let failures: ClosedRange<Int64> = 0...1_000_000
    /// Wake-ups of one registration: one a second for a century is far fewer.
    public static let wakeups: ClosedRange<Int64> = 0...(1 << 40)

    public static func environment(_ stored: String?) throws(StoredValueError) -> APNsEnvironment {
        guard let environment = stored.flatMap(APNsEnvironment.init(name:)) else {
            throw StoredValueError(column: "push_targets.environment", value: stored)
        }
        return environment
    }

    public static func app(_ stored: String?) throws(StoredValueError) -> AppName {
        guard let app = stored.flatMap(AppName.init) else { throw StoredValueError(column: "push_targets.app", value: stored) }
        return app
    }

    public static func activityType(_ stored: String?) throws(StoredValueError) -> ActivityType {
        guard let type = stored.flatMap(ActivityType.init(rawValue:)) else {
            throw StoredValueError(column: "push_targets.activity_type", value: stored)
        }
        return type
    }

    /// The kind of a target row (`wake`, `widgets`).
    public static func kind(_ stored: String?) throws(StoredValueError) -> PushKind {
        guard let kind = stored.flatMap(PushKind.init(name:)) else {
            throw StoredValueError(column: "push_targets.push_kind", value: stored)
        }
        return kind
    }

    /// The longest reason stored (a target's last reason): the vocabulary's names are far
    /// shorter; a longer one is cut here, once, before any engine stores it.
    public static let reasonLength = 64

    /// `reason` as stored: its first `reasonLength` characters.
    public static func reason(_ reason: String) -> String {
        reason.count <= reasonLength ? reason : String(reason.prefix(reasonLength))
    }

    /// The token of a row (stored lowercase hex, as the API wrote it).
    public static func token(_ stored: String?, column: String = "push_token") throws(StoredValueError) -> PushToken {
        guard let stored, let token = try? PushToken(validating: stored), token.hex == stored else {
            throw StoredValueError(column: "push_targets.\(column)", value: stored.map { String($0.prefix(8)) + "…" })
        }
        return token
    }

    /// The seconds the app asked for: nil, or what the API accepts.
    public static func requestedInterval(_ stored: Int64?) throws(StoredValueError) -> Int? {
        guard let stored else { return nil }
        guard IntervalPolicy.requestable.contains(Int(clamping: stored)) else {
            throw StoredValueError(column: "push_targets.requested_interval", value: String(stored))
        }
        return Int(stored)
    }

    public static func time(_ stored: Int64, column: String) throws(StoredValueError) -> Int64 {
        guard times.contains(stored) else { throw StoredValueError(column: "push_targets.\(column)", value: String(stored)) }
        return stored
    }

    /// A time the figures read back (a run's start, a fault's last, the oldest registration, an
    /// hour's start), or a span between two, held to `times`: a figure counts what it can and
    /// shows a planted time at the edge of the range, rather than failing the page for it, and
    /// no sum or difference of two such values overflows (SPEC 7).
    public static func clamped(time stored: Int64) -> Int64 {
        min(max(stored, times.lowerBound), times.upperBound)
    }

    /// A target's attempts from their stored bytes (`AttemptRing`), newest first: an entry
    /// answered at a time outside `times` is damaged and left out, as a damaged tail is, so no
    /// history, ack or age is computed from it.
    public static func attempts(_ stored: [UInt8]?, token: PushToken) -> [PushAttempt] {
        AttemptRing.decode(stored ?? [], token: token).filter { times.contains($0.answeredAt) }
    }

    public static func optionalTime(_ stored: Int64?, column: String) throws(StoredValueError) -> Int64? {
        guard let stored else { return nil }
        return try time(stored, column: column)
    }

    public static func count(_ stored: Int64, in range: ClosedRange<Int64>, column: String) throws(StoredValueError) -> Int64 {
        guard range.contains(stored) else { throw StoredValueError(column: "push_targets.\(column)", value: String(stored)) }
        return stored
    }
}
