import LiveActivityDomain

/// A push target as the counters count it (SPEC 3's caps, the figures' groups): its kind, its
/// registration's app, type and environment, whether APNs ever answered it 200, and how many
/// times it was (its wake-ups: the status page's "wake-ups of the active registrations" is their
/// sum, kept per group so that no figure sums the targets themselves).
public struct CountedTarget: Sendable, Hashable {
    public var kind: PushKind
    public var activityType: ActivityType
    public var environment: APNsEnvironment
    public var proven: Bool
    public var app: AppName
    /// Its pushes answered 200 (`push_count`); in `SweepStatements.deleteExpired`'s counts, the
    /// sum over the targets counted.
    public var wakeups: Int64

    public init(
        kind: PushKind, activityType: ActivityType, environment: APNsEnvironment, proven: Bool, app: AppName = .defaultApp,
        wakeups: Int64 = 0
    ) {
        self.kind = kind
        self.activityType = activityType
        self.environment = environment
        self.proven = proven
        self.app = app
        self.wakeups = wakeups
    }

    /// Its group: the counters' row.
    public var group: TargetGroup { TargetGroup(kind: kind, activityType: activityType, environment: environment, app: app) }

    /// `targets` counted as `SweepStatements.deleteExpired` answers: how many of each group and
    /// proof, their wake-ups summed into the key.
    public static func tally(_ targets: [CountedTarget]) -> [CountedTarget: Int] {
        var sums: [CountedTarget: (count: Int, wakeups: Int64)] = [:]
        for target in targets {
            var key = target
            key.wakeups = 0
            let sum = sums[key] ?? (0, 0)
            sums[key] = (sum.count + 1, sum.wakeups.addingSaturated(target.wakeups))
        }
        return Dictionary(
            uniqueKeysWithValues: sums.map { key, sum in
                var summed = key
                summed.wakeups = sum.wakeups
                return (summed, sum.count)
            })
    }
}

/// One row of the counters: targets of one app, kind, type and environment.
public struct TargetGroup: Sendable, Hashable {
    public var kind: PushKind
    public var activityType: ActivityType
    public var environment: APNsEnvironment
    public var app: AppName

    public init(kind: PushKind, activityType: ActivityType, environment: APNsEnvironment, app: AppName = .defaultApp) {
        self.kind = kind
        self.activityType = activityType
        self.environment = environment
        self.app = app
    }
}

/// What a write changes in one group's counters: targets, targets never answered 200, and their
/// wake-ups (each negative where they go).
public struct GroupDelta: Sendable, Equatable {
    public var group: TargetGroup
    public var targets: Int64
    public var unproven: Int64
    public var wakeups: Int64

    public init(group: TargetGroup, targets: Int64, unproven: Int64, wakeups: Int64 = 0) {
        self.group = group
        self.targets = targets
        self.unproven = unproven
        self.wakeups = wakeups
    }
}

/// How the counters follow the targets (SPEC 3's caps, SPEC 5's unproven cap): the one rule of
/// what counts where, decided here for every engine - an engine only adds the deltas it is given
/// (`adjust`), in the transaction of the write they come from, and keeps no trigger of its own.
/// A target counts in its kind, type and environment; it is unproven until APNs answers it 200;
/// a refresh into another environment makes it unproven again (`TargetWrite.refresh`).
public enum TargetCounting {
    /// The counters' change when `removed` targets go (or leave their group, with their
    /// wake-ups), `added` ones come (or enter theirs), `proven` ones get their first 200 and
    /// `delivered` ones one more 200 each; groups whose counts do not change are left out.
    public static func deltas(
        removing removed: [CountedTarget] = [], adding added: [CountedTarget] = [], proving proven: [CountedTarget] = [],
        delivering delivered: [CountedTarget] = []
    ) -> [GroupDelta] {
        var changes: [TargetGroup: Change] = [:]
        for target in removed {
            changes[target.group, default: Change()].add(
                targets: -1, unproven: target.proven ? 0 : -1, wakeups: target.wakeups.negatedSaturated())
        }
        for target in added {
            changes[target.group, default: Change()].add(targets: 1, unproven: target.proven ? 0 : 1, wakeups: target.wakeups)
        }
        for target in proven where !target.proven { changes[target.group, default: Change()].add(unproven: -1) }
        for target in delivered { changes[target.group, default: Change()].add(wakeups: 1) }
        return sorted(changes)
    }

    /// The change when `counts` targets of each kind go at once (expiry), each key's wake-ups
    /// being the sum over its targets.
    public static func deltas(removing counts: [CountedTarget: Int]) -> [GroupDelta] {
        var changes: [TargetGroup: Change] = [:]
        for (target, count) in counts {
            changes[target.group, default: Change()].add(
                targets: -Int64(count), unproven: target.proven ? 0 : -Int64(count), wakeups: target.wakeups.negatedSaturated())
        }
        return sorted(changes)
    }

    /// One group's change as it is summed (saturating: a stored count out of range never traps).
    private struct Change {
        var targets: Int64 = 0
        var unproven: Int64 = 0
        var wakeups: Int64 = 0

        mutating func add(targets: Int64 = 0, unproven: Int64 = 0, wakeups: Int64 = 0) {
            self.targets = self.targets.addingSaturated(targets)
            self.unproven = self.unproven.addingSaturated(unproven)
            self.wakeups = self.wakeups.addingSaturated(wakeups)
        }

        var isNone: Bool { targets == 0 && unproven == 0 && wakeups == 0 }
    }

    /// The deltas that change something, in a fixed order (PostgreSQL takes row locks in it, so
    /// two hosts' batches never wait on each other in a circle).
    private static func sorted(_ changes: [TargetGroup: Change]) -> [GroupDelta] {
        changes.filter { !$0.value.isNone }
            .map { GroupDelta(group: $0.key, targets: $0.value.targets, unproven: $0.value.unproven, wakeups: $0.value.wakeups) }
            .sorted {
                ($0.group.app.rawValue, $0.group.kind.name, $0.group.environment.rawValue, $0.group.activityType.rawValue)
                    < ($1.group.app.rawValue, $1.group.kind.name, $1.group.environment.rawValue, $1.group.activityType.rawValue)
            }
    }
}
