// A stand-in for ActivityKit's declarations that docs/APP.md uses (see ../README.md): the iOS
// SDK's names and signatures; activities are kept in memory for a test to drive.
import Foundation

public protocol ActivityAttributes: Decodable, Encodable {
    associatedtype ContentState: Decodable, Encodable, Hashable
}

public struct ActivityContent<State>: Equatable where State: Decodable, State: Encodable, State: Hashable {
    public var state: State
    public var staleDate: Date?
    public var relevanceScore: Double

    public init(state: State, staleDate: Date?, relevanceScore: Double = 0.0) {
        self.state = state
        self.staleDate = staleDate
        self.relevanceScore = relevanceScore
    }
}

public enum ActivityState: Equatable, Hashable, Sendable {
    case active
    case ended
    case dismissed
    case stale
    case pending
}

public struct PushType: Equatable, Sendable {
    public static let token = PushType()
}

public struct ActivityUIDismissalPolicy: Sendable {
    public static let `default` = ActivityUIDismissalPolicy()
    public static let immediate = ActivityUIDismissalPolicy()
    public static func after(_ date: Date) -> ActivityUIDismissalPolicy { ActivityUIDismissalPolicy() }
}

public struct ActivityAuthorizationError: Error {}

/// Every stand-in activity, by its attributes' type.
private let registry = Registry()

private final class Registry: @unchecked Sendable {
    let lock = NSLock()
    var activities: [ObjectIdentifier: [AnyObject]] = [:]
}

public final class Activity<Attributes> where Attributes: ActivityAttributes {
    public typealias ContentState = Attributes.ContentState

    public let id: String
    public let attributes: Attributes
    public private(set) var content: ActivityContent<Attributes.ContentState>
    public private(set) var activityState: ActivityState
    public var pushToken: Data? { nil }

    private init(attributes: Attributes, content: ActivityContent<Attributes.ContentState>) {
        id = UUID().uuidString
        self.attributes = attributes
        self.content = content
        activityState = .active
    }

    public static var activities: [Activity<Attributes>] {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        return (registry.activities[ObjectIdentifier(Attributes.self)] ?? []).compactMap { $0 as? Activity<Attributes> }
    }

    public static func request(
        attributes: Attributes, content: ActivityContent<Activity<Attributes>.ContentState>, pushType: PushType? = nil
    ) throws -> Activity<Attributes> {
        let activity = Activity(attributes: attributes, content: content)
        registry.lock.lock()
        registry.activities[ObjectIdentifier(Attributes.self), default: []].append(activity)
        registry.lock.unlock()
        return activity
    }

    public func update(_ content: ActivityContent<Activity<Attributes>.ContentState>) async {
        self.content = content
    }

    public func end(
        _ content: ActivityContent<Activity<Attributes>.ContentState>?, dismissalPolicy: ActivityUIDismissalPolicy = .default
    ) async {
        if let content { self.content = content }
        activityState = .ended
    }

    /// The stand-in's own: the user swiped the activity away (iOS tells no app).
    public func standInDismiss() {
        activityState = .dismissed
        registry.lock.lock()
        registry.activities[ObjectIdentifier(Attributes.self)]?.removeAll { $0 === self }
        registry.lock.unlock()
    }
}
