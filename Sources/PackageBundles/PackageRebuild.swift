import Foundation

/// One rebuild of a watched package (`serve --watch DIR`): a package with a `Bundles/` folder is
/// built and assembled by ``PackageBundler``; a package `import` wrote (no `Bundles/`, its bundles
/// already in `apps/`) is built and each extension's executable replaced in its bundle. A failed
/// build assembles nothing: the last good bundles stay, and the report holds the compiler's errors.
public struct PackageRebuild: Sendable {
    public let packageDirectory: URL

    public init(packageDirectory: URL) {
        self.packageDirectory = packageDirectory.standardizedFileURL
    }

    /// What one rebuild did, in lines for a person.
    public struct Report: Sendable {
        public var succeeded: Bool
        public var text: String
    }

    /// Where the bundles are assembled.
    public var appsDirectory: URL { packageDirectory.appendingPathComponent("apps") }

    /// Whether `apps/` holds something to serve: each app of `Bundles/`, or (an imported package) any app.
    public var isAssembled: Bool {
        let fileManager = FileManager.default
        guard let sources = try? BundleSources(packageDirectory: packageDirectory) else {
            return !((try? fileManager.contentsOfDirectory(atPath: appsDirectory.path)) ?? []).filter { $0.hasSuffix(".app") }.isEmpty
        }
        return sources.apps.allSatisfy { fileManager.fileExists(atPath: appsDirectory.appendingPathComponent($0.app.relativePath).path) }
    }

    /// Builds and assembles; never throws: every failure is in the report.
    public func run() -> Report {
        do {
            if FileManager.default.fileExists(atPath: packageDirectory.appendingPathComponent(BundleSources.folderName).path) {
                let bundler = PackageBundler(sources: try BundleSources(packageDirectory: packageDirectory))
                let build = try bundler.build(output: .captured)
                guard build.succeeded else { return failed(build.output) }
                let made = try bundler.assemble()
                return Report(succeeded: true, text: "\(packageDirectory.path): built; assembled \(made.count) bundles in \(appsDirectory.path)")
            }
            let swift = SwiftBuild(packageDirectory: packageDirectory, configuration: importedConfiguration)
            let build = try swift.build(output: .captured)
            guard build.succeeded else { return failed(build.output) }
            let refreshed = try refreshImportedExecutables(products: try swift.binPath())
            return Report(succeeded: true, text: "\(packageDirectory.path): built; \(refreshed.count) extensions replaced in \(appsDirectory.path)")
        } catch {
            return Report(succeeded: false, text: "\(packageDirectory.path): \(error)")
        }
    }

    private func failed(_ output: String) -> Report {
        Report(succeeded: false, text: "\(packageDirectory.path): the build failed; the last good bundles stay.\n\(SwiftBuild.problems(in: output))")
    }

    /// `import` builds release unless the project's configuration was Debug: whichever it built.
    private var importedConfiguration: String {
        let build = packageDirectory.appendingPathComponent(".build")
        let hasDebug = FileManager.default.fileExists(atPath: build.appendingPathComponent("debug").path)
        let hasRelease = FileManager.default.fileExists(atPath: build.appendingPathComponent("release").path)
        return hasRelease && !hasDebug ? "release" : "debug"
    }

    /// Each `apps/*.app/PlugIns/*.appex` whose `CFBundleExecutable` is a built product gets it again, its manifests kept.
    private func refreshImportedExecutables(products: URL) throws -> [URL] {
        let fileManager = FileManager.default
        var refreshed: [URL] = []
        for app in ((try? fileManager.contentsOfDirectory(atPath: appsDirectory.path)) ?? []).filter({ $0.hasSuffix(".app") }).sorted() {
            let plugIns = appsDirectory.appendingPathComponent(app).appendingPathComponent("PlugIns")
            for name in ((try? fileManager.contentsOfDirectory(atPath: plugIns.path)) ?? []).filter({ $0.hasSuffix(".appex") }).sorted() {
                let appex = plugIns.appendingPathComponent(name)
                guard let info = fileManager.contents(atPath: appex.appendingPathComponent("Info.plist").path),
                      let plist = try? PropertyListSerialization.propertyList(from: info, format: nil) as? [String: Any],
                      let executable = plist["CFBundleExecutable"] as? String,
                      fileManager.isExecutableFile(atPath: products.appendingPathComponent(executable).path) else { continue }
                let entitlements = fileManager.contents(atPath: appex.appendingPathComponent("\(executable).entitlements").path)
                try BundleFolder(url: appex, infoPlist: info, entitlements: entitlements, builtExecutable: products.appendingPathComponent(executable),
                                 executableName: executable, owner: "product \(executable)").write()
                refreshed.append(appex)
            }
        }
        return refreshed
    }
}
