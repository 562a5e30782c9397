import Foundation
import PackageBundles

/// Assembles `DIR/apps/<App>.app` with `PlugIns/<Extension>.appex` from the built products: the
/// expanded manifests, the executables (the stand-in's under the app's executable name), the
/// Copy Bundle Resources files (asset catalogs kept as folders) and, in the app, the seed.
public struct BundleAssembler {
    /// The output directory (`--out`): bundles go into its `apps/`, the seed is its `seed/`.
    public let directory: URL
    /// Where the built executables are (`swift build --show-bin-path`).
    public let products: URL

    public init(directory: URL, products: URL) {
        self.directory = directory
        self.products = products
    }

    /// The folder the apps are assembled in.
    public var appsDirectory: URL { directory.appendingPathComponent("apps") }

    /// Assembles every app of `plan`, replacing what an earlier import assembled.
    /// - Returns: The bundles made, app first then its extensions.
    /// - Throws: ``ImportError`` naming a missing executable or a file that cannot be copied, or
    ///   when `directory` is not marked as an import's (``OutputFolder``: ``PackageWriter`` marks it).
    @discardableResult
    public func assemble(_ plan: ImportPlan) throws -> [URL] {
        var skipped: [String] = []
        return try assemble(plan, failedProducts: [], skipped: &skipped)
    }

    /// Assembles what was built: an app whose stand-in did not build is left out with its
    /// extensions, an extension that did not build is left out of its app; a line in `skipped`
    /// names each.
    public func assemble(_ plan: ImportPlan, failedProducts: Set<String>, skipped: inout [String]) throws -> [URL] {
        guard FileManager.default.fileExists(atPath: directory.appendingPathComponent(OutputFolder.markerFile).path) else {
            throw ImportError("\(directory.path) has no \(OutputFolder.markerFile): bundles are assembled only where the package was written")
        }
        var made: [URL] = []
        for app in plan.apps {
            let standIn = PackageWriter.standInTarget(of: app.app)
            guard !failedProducts.contains(standIn) else {
                skipped.append("\(app.app.bundleName): its stand-in \(standIn) did not build; the app and its extensions are not assembled")
                continue
            }
            let appURL = appsDirectory.appendingPathComponent(app.app.bundleName)
            if FileManager.default.fileExists(atPath: appURL.path) { try FileManager.default.removeItem(at: appURL) }
            try assemble(app.app, at: appURL, executable: standIn)
            try copySeed(into: appURL, groups: app.app.appGroups)
            made.append(appURL)
            for bundle in app.extensions {
                guard !failedProducts.contains(bundle.moduleName) else {
                    skipped.append("\(bundle.bundleName) (target \(bundle.targetName)) did not build (its errors are above); not assembled")
                    continue
                }
                let url = appURL.appendingPathComponent("PlugIns").appendingPathComponent(bundle.bundleName)
                try assemble(bundle, at: url, executable: bundle.moduleName)
                made.append(url)
            }
        }
        return made
    }

    private func assemble(_ bundle: ImportPlan.Bundle, at url: URL, executable product: String) throws {
        let resources = bundle.resources.map { BundleFolder.Resource(source: $0, destination: BundleResources.destination(of: $0)) }
        let folder = BundleFolder(url: url, infoPlist: bundle.infoPlist, entitlements: bundle.entitlements,
                                  builtExecutable: products.appendingPathComponent(product), executableName: bundle.executableName,
                                  owner: "target \(bundle.targetName)", resources: resources)
        do {
            try folder.write()
        } catch let error as BundleAssemblyError {
            throw ImportError(error.description)
        }
    }

    /// Copies `DIR/seed/<group>.plist` (and `keychain.json`) into the app's `seed/`, where its stand-in reads them.
    private func copySeed(into app: URL, groups: [String]) throws {
        let seed = SeedFolder(directory: directory)
        let files = groups.map { "\($0).plist" } + [SeedFolder.keychainFile]
        let destination = app.appendingPathComponent("seed")
        for file in files where FileManager.default.fileExists(atPath: seed.url.appendingPathComponent(file).path) {
            try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: seed.url.appendingPathComponent(file), to: destination.appendingPathComponent(file))
        }
    }
}
