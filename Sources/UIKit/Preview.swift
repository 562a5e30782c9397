// `#Preview { ... }` for UIKit screens (`Preview(_:traits:body:)`): Xcode's canvas does not exist
// here, so the macro (PreviewMacros, a compiler plugin without swift-syntax) expands to nothing; its
// body is still type-checked, as on iOS.

/// A preview's setting (`PreviewTrait`): accepted.
public struct PreviewTrait<T>: Sendable {
    let name: String
}

/// The preview type's namespace (`Preview`): only its trait kind is used here.
public struct Preview: Sendable {
    /// Traits of a view preview (`Preview.ViewTraits`).
    public enum ViewTraits: Sendable {}
}

extension PreviewTrait where T == Preview.ViewTraits {
    public static var defaultLayout: PreviewTrait<T> { PreviewTrait(name: "defaultLayout") }
    public static var sizeThatFitsLayout: PreviewTrait<T> { PreviewTrait(name: "sizeThatFitsLayout") }
    public static func fixedLayout(width: CGFloat, height: CGFloat) -> PreviewTrait<T> { PreviewTrait(name: "fixedLayout") }
    public static var portrait: PreviewTrait<T> { PreviewTrait(name: "portrait") }
    public static var portraitUpsideDown: PreviewTrait<T> { PreviewTrait(name: "portraitUpsideDown") }
    public static var landscapeLeft: PreviewTrait<T> { PreviewTrait(name: "landscapeLeft") }
    public static var landscapeRight: PreviewTrait<T> { PreviewTrait(name: "landscapeRight") }
}

/// A preview of a view controller: compiles, and adds nothing to the program.
@freestanding(declaration)
public macro Preview(_ name: String? = nil, traits: PreviewTrait<Preview.ViewTraits>...,
                     body: @escaping @MainActor () -> UIViewController) = #externalMacro(module: "PreviewMacros", type: "PreviewMacro")

/// A preview of a view: compiles, and adds nothing to the program.
@freestanding(declaration)
public macro Preview(_ name: String? = nil, traits: PreviewTrait<Preview.ViewTraits>...,
                     body: @escaping @MainActor () -> UIView) = #externalMacro(module: "PreviewMacros", type: "PreviewMacro")
