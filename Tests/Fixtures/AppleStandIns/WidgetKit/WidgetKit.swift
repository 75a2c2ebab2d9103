// A stand-in for WidgetKit's declarations that docs/APP.md uses (see ../README.md): the iOS
// SDK's names and signatures (iOS 26 push widgets).
import Foundation

public struct WidgetPushInfo: Sendable {
    public let token: Data

    /// The stand-in's own: WidgetKit makes these.
    public init(standInToken token: Data) { self.token = token }
}

public struct WidgetInfo: Sendable {
    public let kind: String

    /// The stand-in's own: WidgetKit makes these.
    public init(standInKind kind: String) { self.kind = kind }
}

public protocol WidgetPushHandler {
    init()
    func pushTokenDidChange(_ pushInfo: WidgetPushInfo, widgets: [WidgetInfo])
}

public final class WidgetCenter {
    /// What `currentPushInfo` answers; the stand-in's own.
    nonisolated(unsafe) public static var standInPushInfo: WidgetPushInfo?

    public static var shared: WidgetCenter { WidgetCenter() }

    private init() {}

    public var currentPushInfo: WidgetPushInfo? {
        get async { Self.standInPushInfo }
    }

    public func reloadAllTimelines() {}
}
