import Foundation
import PackageBundles
import XcodeImport

/// `wallet-host bundle [DIR]`: builds a package's executable products and assembles
/// `DIR/apps/APP.app/PlugIns/EXT.appex` from its `Bundles/` folder, the layout `import` makes.
struct BundleCommand {
    let directory: URL
    let configuration: String

    static let spec = CommandSpec(
        "bundle",
        arguments: [.init(name: "[DIR]", help: "The Swift package's directory (default: the current one).")],
        summary: """
            Build a Swift package (swift build) and assemble DIR/apps/APP.app with PlugIns/EXT.appex from its \
            Bundles/ folder: each bundle's Info.plist, entitlements and other files, and the executable product its \
            CFBundleExecutable names (docs/SDK.md, Bundling a package). A package made by new has that folder.
            """,
        options: [
            .flag("release", help: "Build in release (default: debug, which builds faster)."),
        ])

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, for: Self.spec)
        guard parsed.positionals.count <= 1 else { throw UsageError("bundle takes at most one DIR") }
        directory = URL(fileURLWithPath: parsed.positionals.first ?? FileManager.default.currentDirectoryPath).standardizedFileURL
        configuration = parsed.has("release") ? "release" : "debug"
    }

    func run() throws -> Int32 {
        let bundler = PackageBundler(sources: try BundleSources(packageDirectory: directory), configuration: configuration)
        print("building \(directory.path) (swift build -c \(configuration))")
        guard try bundler.build().succeeded else {
            throw CommandFailure("swift build failed (its errors are above); nothing assembled, apps/ is as it was")
        }
        for bundle in try bundler.assemble() { print("assembled \(bundle.path)") }
        let apps = SeedFolder.shellQuoted(bundler.appsDirectory.path)
        if let app = bundler.sources.apps.first, let first = app.extensions.first {
            print("next: wallet-host conform \(SeedFolder.shellQuoted(bundler.appsDirectory.appendingPathComponent(first.relativePath).path)); "
                + "wallet-host app open \(SeedFolder.shellQuoted(bundler.appsDirectory.appendingPathComponent(app.app.relativePath).path)) "
                + "--apps \(apps); wallet-host add-card --apps \(apps)")
        }
        return 0
    }
}
