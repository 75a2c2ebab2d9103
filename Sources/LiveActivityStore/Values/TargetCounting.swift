import LiveActivityDomain

/// A push target as the counters count it (SPEC 3's caps, the figures' groups): its kind, its
/// registration's app, type and environment, and whether APNs ever answered it 200.
public struct CountedTarget: Sendable, Hashable {
    public var kind: PushKind
    public var activityType: ActivityType
    public var environment: APNsEnvironment
    public var proven: Bool
    public var app: AppName

    public init(
        kind: PushKind, activityType: ActivityType, environment: APNsEnvironment, proven: Bool, app: AppName = .defaultApp
    ) {
        self.kind = kind
        self.activityType = activityType
        self.environment = environment
        self.proven = proven
        self.app = app
    }

    /// Its group: the counters' row.
    public var group: TargetGroup { TargetGroup(kind: kind, activityType: activityType, environment: environment, app: app) }
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

/// What a write changes in one group's counters: targets, and targets never answered 200 (each
/// negative where they go).
public struct GroupDelta: Sendable, Equatable {
    public var group: TargetGroup
    public var targets: Int64
    public var unproven: Int64

    public init(group: TargetGroup, targets: Int64, unproven: Int64) {
        self.group = group
        self.targets = targets
        self.unproven = unproven
    }
}

/// How the counters follow the targets (SPEC 3's caps, SPEC 5's unproven cap): the one rule of
/// what counts where, decided here for every engine - an engine only adds the deltas it is given
/// (`adjust`), in the transaction of the write they come from, and keeps no trigger of its own.
/// A target counts in its kind, type and environment; it is unproven until APNs answers it 200;
/// a refresh into another environment makes it unproven again (`TargetWrite.refresh`).
public enum TargetCounting {
    /// The counters' change when `removed` targets go (or leave their group), `added` ones come
    /// (or enter theirs) and `proven` ones get their first 200; groups whose counts do not change
    /// are left out.
    public static func deltas(
        removing removed: [CountedTarget] = [], adding added: [CountedTarget] = [], proving proven: [CountedTarget] = []
    ) -> [GroupDelta] {
        var changes: [TargetGroup: (targets: Int64, unproven: Int64)] = [:]
        for target in removed {
            changes[target.group, default: (0, 0)].targets -= 1
            if !target.proven { changes[target.group, default: (0, 0)].unproven -= 1 }
        }
        for target in added {
            changes[target.group, default: (0, 0)].targets += 1
            if !target.proven { changes[target.group, default: (0, 0)].unproven += 1 }
        }
        for target in proven where !target.proven { changes[target.group, default: (0, 0)].unproven -= 1 }
        return sorted(changes)
    }

    /// The change when `counts` targets of each kind go at once (expiry).
    public static func deltas(removing counts: [CountedTarget: Int]) -> [GroupDelta] {
        var changes: [TargetGroup: (targets: Int64, unproven: Int64)] = [:]
        for (target, count) in counts {
            changes[target.group, default: (0, 0)].targets -= Int64(count)
            if !target.proven { changes[target.group, default: (0, 0)].unproven -= Int64(count) }
        }
        return sorted(changes)
    }

    /// The deltas that change something, in a fixed order (PostgreSQL takes row locks in it, so
    /// two hosts' batches never wait on each other in a circle).
    private static func sorted(_ changes: [TargetGroup: (targets: Int64, unproven: Int64)]) -> [GroupDelta] {
        changes.filter { $0.value.targets != 0 || $0.value.unproven != 0 }
            .map { GroupDelta(group: $0.key, targets: $0.value.targets, unproven: $0.value.unproven) }
            .sorted {
                ($0.group.app.rawValue, $0.group.kind.name, $0.group.environment.rawValue, $0.group.activityType.rawValue)
                    < ($1.group.app.rawValue, $1.group.kind.name, $1.group.environment.rawValue, $1.group.activityType.rawValue)
            }
    }
}
