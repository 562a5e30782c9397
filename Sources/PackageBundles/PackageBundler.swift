import Foundation

/// `wallet-host bundle`: builds a package's executable products and assembles
/// `DIR/apps/APP.app/PlugIns/EXT.appex` from its `Bundles/` folder (``BundleSources``) with
/// ``BundleFolder``, the step `import` assembles with too.
public struct PackageBundler: Sendable {
    public let sources: BundleSources
    /// `debug` or `release`.
    public let configuration: String

    public init(sources: BundleSources, configuration: String = "debug") {
        self.sources = sources
        self.configuration = configuration
    }

    /// Where the apps are assembled: `DIR/apps`.
    public var appsDirectory: URL {
        sources.packageDirectory.appendingPathComponent("apps")
    }

    /// Builds the package; on failure nothing is assembled, so the last assembled bundles stay.
    /// - Returns: Whether it built, and what it printed when `output` is captured.
    public func build(output: SwiftBuild.Output = .standardError) throws -> SwiftBuild.Result {
        try SwiftBuild(packageDirectory: sources.packageDirectory, configuration: configuration).build(output: output)
    }

    /// Assembles every app from the built products. Each app is made beside the old one and
    /// renamed into place, so a daemon watching `apps/` never loads a half-copied bundle.
    /// - Returns: The bundles made, each app before its extensions.
    /// - Throws: ``BundleAssemblyError`` naming the Info.plist whose executable was not built, or the
    ///   file that cannot be copied.
    @discardableResult
    public func assemble() throws -> [URL] {
        let products = try SwiftBuild(packageDirectory: sources.packageDirectory, configuration: configuration).binPath()
        let fileManager = FileManager.default
        try? fileManager.createDirectory(at: appsDirectory, withIntermediateDirectories: true)
        var made: [URL] = []
        for app in sources.apps {
            let final = appsDirectory.appendingPathComponent(app.app.relativePath)
            let fresh = appsDirectory.appendingPathComponent(".\(app.app.relativePath).new")
            let old = appsDirectory.appendingPathComponent(".\(app.app.relativePath).old")
            for leftover in [fresh, old] where fileManager.fileExists(atPath: leftover.path) { try? fileManager.removeItem(at: leftover) }
            for bundle in [app.app] + app.extensions {
                let relative = bundle.relativePath.dropFirst(app.app.relativePath.count)
                let url = URL(fileURLWithPath: fresh.path + relative)
                try folder(for: bundle, at: url, products: products).write()
            }
            do {
                if fileManager.fileExists(atPath: final.path) { try fileManager.moveItem(at: final, to: old) }
                try fileManager.moveItem(at: fresh, to: final)
                if fileManager.fileExists(atPath: old.path) { try fileManager.removeItem(at: old) }
            } catch {
                throw BundleAssemblyError("cannot put \(final.path) in place: \(error.localizedDescription)")
            }
            made.append(final)
            made += app.extensions.map { appsDirectory.appendingPathComponent($0.relativePath) }
        }
        return made
    }

    private func folder(for bundle: BundleSources.Bundle, at url: URL, products: URL) throws -> BundleFolder {
        let built = products.appendingPathComponent(bundle.executable)
        guard FileManager.default.isExecutableFile(atPath: built.path) else {
            throw BundleAssemblyError("\(bundle.folder.appendingPathComponent("Info.plist").path): CFBundleExecutable \(bundle.executable) "
                + "is not an executable product the package built (no \(built.path)); name the product of this bundle's target")
        }
        return BundleFolder(url: url, infoPlist: bundle.infoPlist, entitlements: bundle.entitlements, builtExecutable: built,
                            executableName: bundle.executable, owner: "product \(bundle.executable)", resources: bundle.resources)
    }
}
