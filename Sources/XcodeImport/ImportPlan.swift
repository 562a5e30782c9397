import Foundation

/// What `import` makes of a project: each containing app with the Wallet extensions it embeds, the
/// test targets that test them, and one line for everything it cannot carry.
public struct ImportPlan: Sendable {
    /// One bundle to build and assemble: an extension, or a containing app (whose executable is a stand-in).
    public struct Bundle: Sendable {
        /// The Xcode target's name.
        public var targetName: String
        /// `PRODUCT_MODULE_NAME`: the generated target's (and Swift module's) name.
        public var moduleName: String
        /// `EXECUTABLE_NAME`: the executable in the bundle.
        public var executableName: String
        /// `FULL_PRODUCT_NAME`, e.g. `IssuerCards.appex`.
        public var bundleName: String
        /// The Swift files, referenced in place.
        public var sources: [URL]
        /// The Copy Bundle Resources files.
        public var resources: [URL]
        /// The expanded Info.plist, as an XML property list.
        public var infoPlist: Data
        /// The expanded entitlements, as an XML property list, if any.
        public var entitlements: Data?
        /// `com.apple.security.application-groups`.
        public var appGroups: [String]
        /// `NSExtension.NSExtensionPointIdentifier` (nil for an app).
        public var extensionPoint: String?
        /// The class part of `NSExtensionPrincipalClass` (nil for an app).
        public var principalClass: String?
        /// `SWIFT_VERSION` as SwiftPM spells a language mode (`5`, `6`), if set.
        public var swiftLanguageMode: String?
        /// `SWIFT_ACTIVE_COMPILATION_CONDITIONS` and the `-D` of `OTHER_SWIFT_FLAGS`: the package's `.define`s.
        public var compilationConditions: [String] = []
        /// Whether a source imports SwiftUI or Combine (the SDK's SwiftUI product is linked then).
        public var usesSwiftUI: Bool
        /// Whether a source declares its own entry point (`@main` or a `main.swift`): no main.swift is generated.
        public var hasEntryPoint: Bool
        /// The initial scene of `NSExtensionMainStoryboard`, read when the extension has no
        /// principal class: its class is ``principalClass``, its views become `StoryboardScenes.swift`.
        var storyboardScene: StoryboardScene?
    }

    /// A containing app and the Wallet extensions it embeds.
    public struct App: Sendable {
        public var app: Bundle
        public var extensions: [Bundle]
    }

    /// A unit-test target whose sources import extension modules: a SwiftPM test target.
    public struct TestTarget: Sendable {
        public var name: String
        public var sources: [URL]
        /// The extension modules it imports.
        public var testedModules: [String]
        public var swiftLanguageMode: String?
        /// As ``Bundle/compilationConditions``.
        public var compilationConditions: [String] = []
    }

    /// The configuration read (`Debug`, `Release`).
    public var configuration: String
    public var apps: [App]
    public var tests: [TestTarget]
    /// One line for each thing the importer cannot carry, naming the target.
    public var notCarried: [String]

    /// Every Wallet extension once, in the apps' order: an extension two apps embed is one package target.
    public var extensions: [Bundle] {
        var seen: Set<String> = []
        return apps.flatMap(\.extensions).filter { seen.insert($0.moduleName).inserted }
    }
}
