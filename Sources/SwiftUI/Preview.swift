// `#Preview { ... }` for SwiftUI views (`Preview(_:body:)`, `Preview(_:traits:_:body:)`): it
// expands to nothing (see UIKit's Preview.swift); the body is type-checked as on iOS.

/// A preview of a SwiftUI view: compiles, and adds nothing to the program.
@freestanding(declaration)
public macro Preview(_ name: String? = nil, @ViewBuilder body: @escaping @MainActor () -> any View)
    = #externalMacro(module: "PreviewMacros", type: "PreviewMacro")

/// A preview of a SwiftUI view with traits: compiles, and adds nothing to the program.
@freestanding(declaration)
public macro Preview(_ name: String? = nil, traits: PreviewTrait<Preview.ViewTraits>, _ additionalTraits: PreviewTrait<Preview.ViewTraits>...,
                     @ViewBuilder body: @escaping @MainActor () -> any View) = #externalMacro(module: "PreviewMacros", type: "PreviewMacro")
