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
    /// The target's entitlements: read, never copied as a resource. (Its Info.plist is known by
    /// `INFOPLIST_FILE`, not by name: `GoogleService-Info.plist` is a resource.)
    case manifest
    /// A file the bundle would hold that the importer cannot make: the reason, for a line.
    case notCarried(String)
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
        case "xcstrings": self = .notCarried("string catalogs are not carried (export them as .strings in Xcode and add those)")
        case "xcdatamodeld", "xcdatamodel": self = .notCarried("Core Data models are not carried")
        case "xcconfig", "md", "modulemap", "xctestplan", "docc", "xcprivacy": self = .ignored
        default:
            if name.hasPrefix(".") {
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
