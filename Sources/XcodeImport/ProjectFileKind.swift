import Foundation

/// What a file in a target is to the importer, judged by its name as Xcode judges a file type.
enum ProjectFileKind: Equatable {
    /// Swift source: compiled into the target.
    case swift
    /// Objective-C, C or C++ source, or a header: cannot be carried.
    case foreignSource
    /// An Interface Builder file: cannot run here.
    case interfaceBuilder
    /// An asset catalog folder: copied as it is (`UIImage(named:)` reads its image sets).
    case assetCatalog
    /// The target's Info.plist or entitlements: read, never copied as a resource.
    case manifest
    /// Build configuration files, documentation and the like: neither compiled nor copied.
    case ignored
    /// Anything else in a target's folder or resources phase: copied into the bundle.
    case resource

    init(fileName: String) {
        let name = fileName.lowercased()
        let pathExtension = (name as NSString).pathExtension
        switch pathExtension {
        case "swift": self = .swift
        case "m", "mm", "c", "cc", "cpp", "cxx", "h", "hpp", "metal": self = .foreignSource
        case "storyboard", "xib", "nib": self = .interfaceBuilder
        case "xcassets": self = .assetCatalog
        case "entitlements": self = .manifest
        case "xcconfig", "md", "modulemap", "xctestplan", "xcstrings", "docc", "xcprivacy", "xcdatamodeld": self = .ignored
        default:
            if name == "info.plist" || name.hasSuffix("-info.plist") {
                self = .manifest
            } else if name.hasPrefix(".") {
                self = .ignored
            } else {
                self = .resource
            }
        }
    }

    /// Whether a folder with this name is one file to Xcode (a catalog, a localization folder's bundle).
    static func isOpaqueFolder(_ name: String) -> Bool {
        ["xcassets", "bundle", "xcdatamodeld", "docc", "lproj", "scnassets"].contains((name.lowercased() as NSString).pathExtension)
    }
}
