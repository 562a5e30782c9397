import Foundation

/// A package's bundles as its `Bundles/` folder describes them: each app as it will be assembled,
/// `Bundles/APP.app` (its Info.plist, entitlements and any other files) with its extensions in
/// `Bundles/APP.app/PlugIns/EXT.appex`. Each bundle's executable is the package's executable
/// product of the Info.plist's `CFBundleExecutable`. `wallet-host new` writes this folder; a
/// package made by hand adds one (docs/SDK.md, "Bundling a package").
public struct BundleSources: Sendable {
    /// The folder below the package's root that holds the bundles' manifests.
    public static let folderName = "Bundles"

    /// One bundle's sources.
    public struct Bundle: Sendable {
        /// `Bundles/APP.app` or `Bundles/APP.app/PlugIns/EXT.appex`.
        public var folder: URL
        /// Its path inside the assembled apps folder: `APP.app`, `APP.app/PlugIns/EXT.appex`.
        public var relativePath: String
        /// `CFBundleExecutable`: the product built for it and the executable's name in the bundle.
        public var executable: String
        public var infoPlist: Data
        public var entitlements: Data?
        /// Every other file and folder in it, copied as they are.
        public var resources: [BundleFolder.Resource]
    }

    /// An app with its extensions.
    public struct App: Sendable {
        public var app: Bundle
        public var extensions: [Bundle]
    }

    /// The package's directory.
    public let packageDirectory: URL
    /// The apps in name order.
    public let apps: [App]

    /// Reads `DIR/Bundles`.
    /// - Throws: ``BundleAssemblyError`` naming the folder or file at fault: no `Bundles/`, no app in
    ///   it, a bundle without Info.plist or `CFBundleExecutable`, two entitlements files.
    public init(packageDirectory: URL) throws {
        self.packageDirectory = packageDirectory
        let folder = packageDirectory.appendingPathComponent(Self.folderName)
        guard FileManager.default.fileExists(atPath: packageDirectory.appendingPathComponent("Package.swift").path) else {
            throw BundleAssemblyError("\(packageDirectory.path) has no Package.swift: bundle takes a Swift package's directory")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let appNames = names.filter { $0.hasSuffix(".app") }.sorted()
        guard !appNames.isEmpty else {
            throw BundleAssemblyError("\(folder.path) holds no APP.app folder: put each app's Info.plist and entitlements in "
                + "\(Self.folderName)/APP.app and each extension's in \(Self.folderName)/APP.app/PlugIns/EXT.appex (docs/SDK.md, Bundling a package)")
        }
        apps = try appNames.map { name in
            let appFolder = folder.appendingPathComponent(name)
            let plugIns = appFolder.appendingPathComponent("PlugIns")
            let extensionNames = ((try? FileManager.default.contentsOfDirectory(atPath: plugIns.path)) ?? []).filter { $0.hasSuffix(".appex") }.sorted()
            return App(app: try Self.bundle(at: appFolder, relativePath: name),
                       extensions: try extensionNames.map { try Self.bundle(at: plugIns.appendingPathComponent($0), relativePath: "\(name)/PlugIns/\($0)") })
        }
    }

    /// Every bundle, each app before its extensions.
    public var bundles: [Bundle] {
        apps.flatMap { [$0.app] + $0.extensions }
    }

    private static func bundle(at folder: URL, relativePath: String) throws -> Bundle {
        let infoURL = folder.appendingPathComponent("Info.plist")
        guard let info = FileManager.default.contents(atPath: infoURL.path) else {
            throw BundleAssemblyError("\(infoURL.path) does not exist: every bundle folder needs its Info.plist")
        }
        let dictionary: [String: Any]?
        do {
            dictionary = try PropertyListSerialization.propertyList(from: info, format: nil) as? [String: Any]
        } catch {
            throw BundleAssemblyError("\(infoURL.path) is not a property list: \(error.localizedDescription)")
        }
        guard let executable = dictionary?["CFBundleExecutable"] as? String, !executable.isEmpty, !executable.contains("/") else {
            throw BundleAssemblyError("\(infoURL.path) has no CFBundleExecutable: it names the package's executable product built for this bundle")
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        let entitlementFiles = names.filter { $0.hasSuffix(".entitlements") }
        guard entitlementFiles.count <= 1 else {
            throw BundleAssemblyError("\(folder.path) holds \(entitlementFiles.joined(separator: " and ")): a bundle has one entitlements file")
        }
        let entitlements = try entitlementFiles.first.map { name -> Data in
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else {
                throw BundleAssemblyError("\(folder.appendingPathComponent(name).path) cannot be read")
            }
            return data
        }
        let reserved = Set(["Info.plist", "PlugIns", executable] + entitlementFiles)
        let resources = names.filter { !reserved.contains($0) && !$0.hasPrefix(".") }
            .map { BundleFolder.Resource(source: folder.appendingPathComponent($0), destination: $0) }
        return Bundle(folder: folder, relativePath: relativePath, executable: executable, infoPlist: info, entitlements: entitlements,
                      resources: resources)
    }
}
