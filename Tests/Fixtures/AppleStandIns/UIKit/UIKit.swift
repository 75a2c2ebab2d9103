// A stand-in for UIKit's declarations that docs/APP.md uses (see ../README.md): the iOS SDK's
// names and signatures, not its behaviour.
@_exported import Foundation  // as Apple's UIKit does

/// The stand-in's knobs: what a test sets as the phone's state. No such type exists in UIKit.
public enum StandIn {
    nonisolated(unsafe) public static var backgroundRefreshStatus = UIBackgroundRefreshStatus.available
    nonisolated(unsafe) public static var lowPowerMode = false
    nonisolated(unsafe) public static var remoteNotificationRegistrations = 0
}

public enum UIBackgroundRefreshStatus: Int, Sendable {
    case restricted = 0
    case denied = 1
    case available = 2
}

public enum UIBackgroundFetchResult: UInt, Sendable {
    case newData = 0
    case noData = 1
    case failed = 2
}

@MainActor
open class UIApplication {
    public struct LaunchOptionsKey: Hashable, RawRepresentable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }

    public static var shared: UIApplication { UIApplication() }

    nonisolated public init() {}

    public var backgroundRefreshStatus: UIBackgroundRefreshStatus { StandIn.backgroundRefreshStatus }

    open func registerForRemoteNotifications() { StandIn.remoteNotificationRegistrations += 1 }
}

/// UIKit's delegate protocol; its methods are optional in UIKit (Objective-C), defaults here.
/// `init()` is the stand-in's own (UIKit makes the delegate through the Objective-C runtime):
/// a delegate class here is `final`, or its `init()` is `required`. UIKit's refines
/// `NSObjectProtocol`, which Foundation on Linux declares with no actor; the delegate's
/// `NSObject` superclass is what a test sees of it.
@MainActor
public protocol UIApplicationDelegate {
    init()
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool
    func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data)
    func application(_ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: any Error)
    func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any]) async
        -> UIBackgroundFetchResult
}

extension UIApplicationDelegate {
    public func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool { true }
    public func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {}
    public func application(_ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: any Error) {}
    public func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any]) async
        -> UIBackgroundFetchResult
    { .noData }
}

extension ProcessInfo {
    /// Foundation's on Apple's platforms; absent from Foundation on Linux, so declared here.
    public var isLowPowerModeEnabled: Bool { StandIn.lowPowerMode }
}
