// A stand-in for SwiftUI's declarations that docs/APP.md uses (see ../README.md): the iOS SDK's
// names and signatures for an app whose delegate is UIKit's, nothing that draws.
import Foundation
import UIKit

@MainActor
public protocol View {}

@MainActor
public protocol Scene {}

public struct Text: View {
    public init(_ content: String) {}
}

public struct WindowGroup<Content: View>: Scene {
    public init(@ViewBuilder content: () -> Content) {}
}

@resultBuilder
public enum ViewBuilder {
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
}

@resultBuilder
public enum SceneBuilder {
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

@MainActor
public protocol App {
    associatedtype Body: Scene
    @SceneBuilder var body: Body { get }
    init()
}

@MainActor
@propertyWrapper
public struct UIApplicationDelegateAdaptor<DelegateType: NSObject & UIApplicationDelegate> {
    public let wrappedValue: DelegateType

    public init(_ delegateType: DelegateType.Type = DelegateType.self) {
        wrappedValue = delegateType.init()
    }
}
