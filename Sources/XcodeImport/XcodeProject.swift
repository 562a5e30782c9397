import Foundation

/// An Xcode project as `wallet-host import` needs it: its targets, their files and their build
/// configurations, read from `project.pbxproj` by ``ProjectFileReader``.
public struct XcodeProject: Sendable {
    /// The `.xcodeproj` directory.
    public var url: URL
    /// `PROJECT_NAME`: the `.xcodeproj` name without its extension.
    public var name: String
    /// `SRCROOT`: the directory holding the `.xcodeproj` (plus the project's `projectDirPath`).
    public var sourceRoot: URL
    /// The pbxproj `objectVersion` (77 for Xcode 16's synchronized folders).
    public var objectVersion: Int
    /// The project-level build configurations, by name (`Debug`, `Release`).
    public var configurations: [String: BuildConfiguration]
    /// The configuration Xcode builds when none is named.
    public var defaultConfigurationName: String?
    /// Every native target, in the project's order.
    public var targets: [XcodeTarget]
    /// What the import may read (``ProjectBoundary``): files the project names outside it are not read.
    public var boundary: ProjectBoundary
    /// One line for each thing of the project itself (not of a target) the importer does not carry.
    public var unsupported: [String] = []

    /// The target with this pbxproj object identifier.
    public func target(identifier: String) -> XcodeTarget? {
        targets.first { $0.identifier == identifier }
    }
}

/// One build configuration of the project or a target: its settings as written and the
/// `.xcconfig` it is based on, if any.
public struct BuildConfiguration: Sendable, Equatable {
    /// `buildSettings`, a list value joined with spaces as Xcode passes it on.
    public var settings: [String: String]
    /// The base configuration file (`baseConfigurationReference`).
    public var baseConfiguration: URL?

    public init(settings: [String: String], baseConfiguration: URL? = nil) {
        self.settings = settings
        self.baseConfiguration = baseConfiguration
    }
}

/// A native target (`PBXNativeTarget`) and what its build phases and synchronized folders hold.
public struct XcodeTarget: Sendable {
    /// The pbxproj object identifier.
    public var identifier: String
    /// `TARGET_NAME`.
    public var name: String
    /// `productType`, e.g. `com.apple.product-type.app-extension`.
    public var productType: String
    /// The target's build configurations, by name.
    public var configurations: [String: BuildConfiguration]
    /// The Swift files it compiles, absolute, in the project's order.
    public var swiftSources: [URL]
    /// What its Copy Bundle Resources phase copies (images, asset catalogs, data files), absolute.
    public var resources: [URL]
    /// The targets whose products it embeds in `PlugIns` (a Copy Files phase to the plug-ins folder).
    public var embeddedTargetIdentifiers: [String]
    /// The targets it depends on.
    public var dependencyIdentifiers: [String]
    /// One line for each thing of this target the importer cannot carry.
    public var unsupported: [String]
    /// Its storyboards and XIBs, absolute: not carried, except the initial scene of the
    /// storyboard a UI extension names in `NSExtensionMainStoryboard` (``StoryboardImport``).
    public var interfaceBuilderFiles: [URL] = []

    public static let applicationType = "com.apple.product-type.application"
    public static let appExtensionType = "com.apple.product-type.app-extension"
    public static let unitTestType = "com.apple.product-type.bundle.unit-test"
}
