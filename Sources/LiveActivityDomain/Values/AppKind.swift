/// One app's pushes of one kind (SPEC 7: every figure that counts pushes counts them per push
/// kind and per app where there are several): what a sweep's counts, the run history and its
/// lifetime totals are kept per.
public struct AppKind: Hashable, Sendable, CustomStringConvertible {
    public var kind: PushKind
    public var app: AppName

    public init(_ kind: PushKind, of app: AppName = .defaultApp) {
        self.kind = kind
        self.app = app
    }

    /// `widgets`, after `other-app/` for an app other than the default one.
    public var description: String { app.prefix("/") + kind.name }

    /// The default app's first, then the other apps by name; within an app, the kinds' order.
    public static func ordered(_ left: AppKind, _ right: AppKind) -> Bool {
        if left.app != right.app { return left.app < right.app }
        return (PushKind.all.firstIndex(of: left.kind) ?? .max, left.kind.name)
            < (PushKind.all.firstIndex(of: right.kind) ?? .max, right.kind.name)
    }
}
