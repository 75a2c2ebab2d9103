/// The counts of one sweep, printed as one line and kept in the run history (SPEC section 5 step
/// 7): the run's own (when, how long, what expired, its faults) and, per app and push kind, what
/// its targets came to (`SweepCounts`). The plain names (`sent`, `active`, ...) are the default
/// app's wake pushes', as they always were; the line adds each other kind's where a deployment has
/// such targets, and each further app's apart (SPEC 7), so a deployment of one app reads as before.
public struct SweepSummary: Equatable, Sendable {
    public var startedAt: Int64 = 0
    public var durationMilliseconds: Int64 = 0
    /// Registrations expired (with every target of theirs), of every app.
    public var expired = 0
    /// What each app's pushes of each kind came to; every app and kind that had targets or
    /// pushes this run.
    public var counts: [AppKind: SweepCounts] = [:]
    /// The faults that stopped sending to a scope (one per scope), then the mass-deletion
    /// guard's (one per scope where it held deletions).
    public var faults: [SweepFault] = []
    /// Wakes the cadence withheld (SPEC 5, "Cadence"), per app, type, environment and reason.
    public var withheld: [WithheldWakes.Group: Int] = [:]

    public init() {}

    /// `app`'s withheld wakes by reason, every type and environment together (the line's figure).
    public func withheldReasons(of app: AppName = .defaultApp) -> [Cadence.Withheld: Int] {
        withheld.filter { $0.key.app == app }.reduce(into: [:]) { $0[$1.key.reason, default: 0] += $1.value }
    }

    /// The default app's counts of `kind` (zero for a kind with none).
    public subscript(_ kind: PushKind) -> SweepCounts {
        get { self[kind, of: .defaultApp] }
        set { self[kind, of: .defaultApp] = newValue }
    }

    /// `app`'s counts of `kind` (zero for a kind with none).
    public subscript(_ kind: PushKind, of app: AppName) -> SweepCounts {
        get { counts[AppKind(kind, of: app)] ?? SweepCounts() }
        set { counts[AppKind(kind, of: app)] = newValue }
    }

    // MARK: - The default app's wake pushes' counts, by their old names

    /// Registrations present after expiry (their wake targets).
    public var active: Int {
        get { self[.wake].active }
        set { self[.wake].active = newValue }
    }
    public var sent: Int {
        get { self[.wake].sent }
        set { self[.wake].sent = newValue }
    }
    /// Active but not yet due.
    public var skipped: Int {
        get { self[.wake].skipped }
        set { self[.wake].skipped = newValue }
    }
    public var removed: Int {
        get { self[.wake].removed }
        set { self[.wake].removed = newValue }
    }
    public var failed: Int {
        get { self[.wake].failed }
        set { self[.wake].failed = newValue }
    }
    /// Kept untried or set aside by a fault of their scope (waiting one interval).
    public var held: Int {
        get { self[.wake].held }
        set { self[.wake].held = newValue }
    }
    /// Left for the next run: not sent before the time budget ran out or the sweep was stopped.
    public var deferred: Int {
        get { self[.wake].deferred }
        set { self[.wake].deferred = newValue }
    }
    /// Why wake pushes failed (kept for a later sweep), with counts.
    public var failureReasons: [String: Int] {
        get { self[.wake].failureReasons }
        set { self[.wake].failureReasons = newValue }
    }
    /// Why registrations were removed (410, BadDeviceToken), with counts.
    public var removalReasons: [String: Int] {
        get { self[.wake].removalReasons }
        set { self[.wake].removalReasons = newValue }
    }

    /// Pushes of every kind and app left for the next run.
    public var deferredAllKinds: Int { counts.values.map(\.deferred).reduce(0, +) }

    /// Whether the run exits non-zero: a fault other than an unreachable host.
    public var failsTheRun: Bool { faults.contains(where: \.failsTheRun) }

    /// `ok`, or the faults, for the run history.
    public var outcome: RunOutcome { RunOutcome(faults) }

    /// The default app's kinds besides wakes that the line shows: those with targets or pushes
    /// this run, in the order kinds are listed.
    public var otherKindsShown: [PushKind] { otherKindsShown(of: .defaultApp) }

    /// `app`'s kinds besides wakes with targets or pushes this run, in the order kinds are listed.
    public func otherKindsShown(of app: AppName) -> [PushKind] {
        PushKind.all.filter { $0 != .wake && self[$0, of: app] != SweepCounts() }
    }

    /// The apps besides the default one that had targets or pushes this run, by name: the line
    /// shows each apart.
    public var furtherAppsShown: [AppName] {
        Set(
            counts.filter { !$0.key.app.isDefault && $0.value != SweepCounts() }.map(\.key.app)
                + withheld.filter { !$0.key.app.isDefault && $0.value > 0 }.map(\.key.app)
        ).sorted()
    }

    public var line: String {
        var text =
            "sweep: active=\(active) sent=\(sent) skipped=\(skipped) expired=\(expired) removed=\(removed) failed=\(failed) duration=\(Self.seconds(durationMilliseconds))s"
        text += self[.wake].extras(prefix: "", withheld: withheldReasons())
        for kind in otherKindsShown { text += self[kind].fields(prefix: kind.name + "_") }
        // Each further app's counts apart, after its name: `other-app/sent=3 other-app/widgets_sent=1`.
        for app in furtherAppsShown {
            let prefix = app.prefix("/")
            text += self[.wake, of: app].fields(prefix: prefix, withheld: withheldReasons(of: app))
            for kind in otherKindsShown(of: app) { text += self[kind, of: app].fields(prefix: prefix + kind.name + "_") }
        }
        if !faults.isEmpty { text += " faults=" + faults.map(\.summary).joined(separator: ",") }
        return text
    }

    package static func seconds(_ milliseconds: Int64) -> String {
        let tenths = milliseconds.addingSaturated(50) / 100
        return "\(tenths / 10).\(tenths % 10)"
    }
}

/// What one kind of push came to in a sweep.
public struct SweepCounts: Equatable, Sendable {
    /// Targets of the kind present after expiry.
    public var active = 0
    public var sent = 0
    /// Active but not yet due.
    public var skipped = 0
    /// Targets removed (410, BadDeviceToken): a wake target's registration with it.
    public var removed = 0
    public var failed = 0
    /// Kept untried or set aside by a fault of their scope (waiting one interval).
    public var held = 0
    /// Left for the next run: not sent before the time budget ran out or the sweep was stopped.
    public var deferred = 0
    /// Why pushes failed (the target kept), with counts.
    public var failureReasons: [String: Int] = [:]
    /// Why targets were removed, with counts.
    public var removalReasons: [String: Int] = [:]

    public init() {}

    /// ` widgets_active=2 widgets_sent=1 ...`: the counts of a kind or app besides the plain ones,
    /// each name after `prefix`, then its extras.
    func fields(prefix: String, withheld: [Cadence.Withheld: Int] = [:]) -> String {
        " \(prefix)active=\(active) \(prefix)sent=\(sent) \(prefix)skipped=\(skipped)"
            + " \(prefix)removed=\(removed) \(prefix)failed=\(failed)" + extras(prefix: prefix, withheld: withheld)
    }

    /// ` held=3 deferred=2 failures=...`: what the line shows only where there is some, with the
    /// wakes the cadence withheld (`withheld`, by reason: the wake kind's alone).
    func extras(prefix: String, withheld: [Cadence.Withheld: Int] = [:]) -> String {
        var text = ""
        for (label, count) in [("held", held), ("deferred", deferred)] where count > 0 { text += " \(prefix)\(label)=\(count)" }
        for (label, reasons) in [("failures", failureReasons), ("removals", removalReasons)] where !reasons.isEmpty {
            text +=
                " \(prefix)\(label)=" + reasons.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",")
        }
        // Only where the app reported a device state that withheld some: a line as before otherwise.
        let withheldShown = Cadence.Withheld.allCases.compactMap { reason in
            withheld[reason].flatMap { $0 > 0 ? "\(reason.rawValue):\($0)" : nil }
        }
        if !withheldShown.isEmpty { text += " \(prefix)withheld=" + withheldShown.joined(separator: ",") }
        return text
    }
}
