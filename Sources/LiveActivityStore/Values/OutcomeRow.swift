import LiveActivityDomain

/// What one outcome batch does to one push target's row: the sweep's writes for it, folded into
/// one in the order they were made (`OutcomeBatch`), the attempt its answer adds, and whether an
/// ack waiting on the row was judged. An engine applies a batch of these in one transaction, only
/// where the row is still the one the sweep read: on SQLite, registered at the time it was read
/// (a registration made again meanwhile is due at once and keeps that); on PostgreSQL also still
/// under this sweep's lease (another host may have taken it since).
public struct OutcomeRow: Sendable, Equatable {
    public enum Change: Sendable, Equatable {
        /// 200: pushed at `at`, wake-ups + 1, failures reset, due again at `nextPushAt`.
        case delivered(at: Int64, nextPushAt: Int64)
        /// Kept: failures + `failuresAdded` (0 for a row a fault held), the guard's holds +
        /// `guardHoldsAdded`, the reason, due again at `nextPushAt`.
        case kept(Kept)
        /// Deleted, unless registered again after `registeredAtOrBefore`; with its whole
        /// registration when its kind `ownsRegistration` (a wake target), else alone.
        case deleted(registeredAtOrBefore: Int64)
        /// 410: deleted as `deleted`, unless registered again after APNs's timestamp; then kept
        /// as `kept` says.
        case deletedUnlessRenewed(registeredAtOrBefore: Int64, kept: Kept)
        /// Nothing but its attempts (an answer whose outcome another batch writes, or none does).
        case attemptOnly

        public struct Kept: Sendable, Equatable {
            public var failuresAdded: Int
            /// Times the mass-deletion guard held it as junk of a fresh deployment (SPEC 5: the
            /// third such hold of a row never proven deletes it).
            public var guardHoldsAdded: Int
            /// The reason recorded, nil to keep the one stored (a wake the cadence withheld:
            /// nothing went wrong).
            public var reason: String?
            public var nextPushAt: Int64

            public init(failuresAdded: Int, guardHoldsAdded: Int = 0, reason: String?, nextPushAt: Int64) {
                self.failuresAdded = failuresAdded
                self.guardHoldsAdded = guardHoldsAdded
                self.reason = reason.map(StoredValue.reason)
                self.nextPushAt = nextPushAt
            }
        }
    }

    /// What happens to the row's attempts (SPEC 4: its last 20 answers, newest first).
    public enum Attempts: Sendable, Equatable {
        case unchanged
        /// This answer goes first (`AttemptRing.entry`), the 21st is dropped.
        case prepend(PushAttempt)
        /// All of them anew, newest first: a waiting ack was judged a match and marked one; with
        /// the unchanged acks in a row its `changed` made (nil: it said nothing, as stored).
        case replace([PushAttempt], unchangedAcks: Int?)
    }

    public var key: TargetKey
    /// When the registration the sweep read was made.
    public var selectedRegisteredAt: Int64
    public var change: Change
    public var attempts: Attempts
    /// An ack waiting on the row was judged with this batch: the row no longer holds it.
    public var clearsWaitingAck: Bool

    public init(
        key: TargetKey, selectedRegisteredAt: Int64, change: Change, attempts: Attempts = .unchanged,
        clearsWaitingAck: Bool = false
    ) {
        self.key = key
        self.selectedRegisteredAt = selectedRegisteredAt
        self.change = change
        self.attempts = attempts
        self.clearsWaitingAck = clearsWaitingAck
    }

    /// Whether a deletion of it takes its whole registration (`PushKind.ownsRegistration`).
    public var deletesRegistration: Bool { key.kind.ownsRegistration }

    /// What an engine did with a batch's rows: each row's result, in order, and every target the
    /// deletions took (as the counters count them).
    public struct Written: Sendable, Equatable {
        public var results: [Result]
        public var deleted: [CountedTarget]

        public init(results: [Result], deleted: [CountedTarget]) {
            self.results = results
            self.deleted = deleted
        }
    }

    /// What an engine did with the row.
    public enum Result: Sendable, Equatable {
        case written
        /// Deleted (with its registration's other targets where it `deletesRegistration`).
        case deleted
        /// Not there as the sweep read it: deleted, registered again, or (PostgreSQL) taken by another host.
        case skipped
    }
}

/// An ack waiting on a wake target of an outcome batch (`AckRule.waits`), with what judging it needs.
public struct WaitingAck: Sendable, Equatable {
    /// The registration (its token is its wake target's).
    public var key: RegistrationKey
    public var at: Int64
    public var activityType: ActivityType
    public var environment: APNsEnvironment
    public var requestedInterval: Int?
    /// What the ack said of the data (`changed`), nil for nothing.
    public var changed: Bool?
    /// The row's cadence state: its interval, and its unchanged acks a match with `changed` moves.
    public var cadence: CadenceState
    /// The row's attempts before this batch, newest first.
    public var attempts: [PushAttempt]

    public init(
        key: RegistrationKey, at: Int64, activityType: ActivityType, environment: APNsEnvironment, requestedInterval: Int?,
        changed: Bool? = nil, cadence: CadenceState = .base, attempts: [PushAttempt]
    ) {
        self.changed = changed
        self.cadence = cadence
        self.key = key
        self.at = at
        self.activityType = activityType
        self.environment = environment
        self.requestedInterval = requestedInterval
        self.attempts = attempts
    }
}

/// Pushes of one app and kind answered 200 in one hour, of one type and environment, and the
/// targets they were the first of that hour for (registration-hours): what a batch adds to the
/// delivery figures.
public struct DeliveryCount: Sendable, Equatable, Hashable {
    public var hour: Int64
    public var activityType: ActivityType
    public var environment: APNsEnvironment
    public var kind: PushKind
    public var app: AppName
    public var delivered: Int64
    public var registrations: Int64

    public init(
        hour: Int64, activityType: ActivityType, environment: APNsEnvironment, kind: PushKind = .wake,
        app: AppName = .defaultApp, delivered: Int64, registrations: Int64
    ) {
        self.hour = hour
        self.activityType = activityType
        self.environment = environment
        self.kind = kind
        self.app = app
        self.delivered = delivered
        self.registrations = registrations
    }
}
