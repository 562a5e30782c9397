import Foundation
import XcodeImport

/// `wallet-host import PROJECT.xcodeproj --out DIR`: an issuer's Xcode project turned into a
/// generated package (the project's own files referenced in place) and assembled bundles in
/// `DIR/apps`, with a stand-in for the containing app that writes `DIR/seed` (docs/IMPORT.md).
struct ImportCommand {
    let project: URL
    let output: URL
    let sdk: URL
    let configuration: String?
    let skipBuild: Bool
    /// `--allow-outside`: files or directories outside the project the import may read.
    let allowedOutside: [URL]

    static let spec = CommandSpec(
        "import",
        arguments: [.init(name: "PROJECT.xcodeproj", help: "The issuer's Xcode project (its project.pbxproj is read).")],
        summary: """
            Turn an issuer's Xcode project into a package whose targets use the project's own Swift files and \
            into DIR/apps/APP.app with PlugIns/EXT.appex for each Wallet extension the app embeds; print one line \
            for everything it cannot carry. Running it again updates DIR in place.
            """,
        options: [
            .valued("out", "DIR", help: """
                Where the package (Package.swift, Sources, Tests), the bundles (apps/) and the seed (seed/) go. Required.
                """),
            .valued("sdk", "CHECKOUT", help: """
                The wallet-host checkout the package depends on by path (default: the checkout this wallet-host \
                was built from).
                """),
            .valued("configuration", "NAME", help: """
                The build configuration whose settings are read: Debug builds debug, any other release \
                (default: the project's default configuration).
                """),
            .flag("skip-build", help: "Write the package and the seed only: no swift build, no bundles."),
            .valued("allow-outside", "PATH", repeatable: true, help: """
                Let the import read PATH (a file, or a directory and everything in it) although it is outside the \
                project's directory. Without it nothing outside the directory holding the .xcodeproj (and the SDK \
                checkout) is read: a file the project names there (a resource, a Swift file, an .xcconfig or its \
                #include, an Info.plist), symbolic links resolved, gets a "not carried" line instead.
                """),
        ])

    /// The checkout this executable was built from: this file is `Sources/WalletHostCLI/ImportCommand.swift` in it.
    static let defaultSDK = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, for: Self.spec)
        guard parsed.positionals.count == 1, let path = parsed.positionals.first else {
            throw UsageError("import needs one PROJECT.xcodeproj")
        }
        guard let out = parsed.value("out") else { throw UsageError("import needs --out DIR") }
        project = URL(fileURLWithPath: path).standardizedFileURL
        output = URL(fileURLWithPath: out).standardizedFileURL
        sdk = parsed.value("sdk").map { URL(fileURLWithPath: $0).standardizedFileURL } ?? Self.defaultSDK
        configuration = parsed.value("configuration")
        skipBuild = parsed.has("skip-build")
        var allowed: [URL] = []
        for path in parsed.values("allow-outside") {
            guard !path.isEmpty else { throw UsageError("--allow-outside needs a path, not an empty value") }
            allowed.append(URL(fileURLWithPath: path).standardizedFileURL)
        }
        allowedOutside = allowed
    }

    func run() throws -> Int32 {
        try checkSDK()
        let boundary = ProjectBoundary(projectDirectory: project.deletingLastPathComponent(), sdk: sdk, allowedOutside: allowedOutside)
        let xcodeProject = try ProjectFileReader.read(project, boundary: boundary)
        let configuration = configuration ?? xcodeProject.defaultConfiguration
        let plan = try ImportPlanner.plan(xcodeProject, configuration: configuration)
        print("read \(project.lastPathComponent) (object version \(xcodeProject.objectVersion), configuration \(configuration))")
        if xcodeProject.objectVersion > ProjectFileReader.newestObjectVersion {
            print("note: object version \(xcodeProject.objectVersion) is newer than \(ProjectFileReader.newestObjectVersion), the newest this importer knows")
        }
        try PackageWriter(directory: output, sdk: sdk, sourceRoot: xcodeProject.sourceRoot,
                          projectFolders: [project.deletingLastPathComponent()]).write(plan, projectName: xcodeProject.name)
        print("wrote \(output.appendingPathComponent("Package.swift").path) (the SDK from \(sdk.path))")
        for bundle in plan.extensions {
            print("  \(bundle.moduleName): \(bundle.targetName), \(bundle.sources.count) Swift files, \(bundle.resources.count) resources"
                + (bundle.hasEntryPoint ? "" : ", main.swift starts \(bundle.principalClass ?? "?")"))
        }
        for app in plan.apps {
            print("  \(PackageWriter.standInTarget(of: app.app)): stands in for \(app.app.targetName)")
            let written = try SeedFolder(directory: output).writeExamples(appName: app.app.targetName, bundleName: app.app.bundleName,
                                                                        groups: app.app.appGroups)
            for file in written { print("wrote \(file.path) (an example: edit it)") }
        }
        for test in plan.tests { print("  \(test.name): tests \(test.testedModules.joined(separator: ", ")), \(test.sources.count) Swift files") }
        for line in plan.notCarried { print("not carried: \(line)") }
        guard !skipBuild else { return 0 }
        let builder = PackageBuilder(directory: output, xcodeConfiguration: configuration)
        print("building (swift build -c \(builder.configuration))")
        let products = plan.apps.map { PackageWriter.standInTarget(of: $0.app) } + plan.extensions.map(\.moduleName)
        let built = try builder.build(products: products)
        let assembler = BundleAssembler(directory: output, products: built.products)
        var skipped: [String] = []
        for bundle in try assembler.assemble(plan, failedProducts: Set(built.failed), skipped: &skipped) { print("assembled \(bundle.path)") }
        for line in skipped { print("not built: \(line)") }
        if let app = plan.apps.first, let first = app.extensions.first {
            let apps = assembler.appsDirectory.path
            let appex = SeedFolder.shellQuoted("\(apps)/\(app.app.bundleName)/PlugIns/\(first.bundleName)")
            print("next: wallet-host conform \(appex); \(SeedFolder.openCommand(bundleName: app.app.bundleName, apps: apps)); "
                + "wallet-host add-card --apps \(SeedFolder.shellQuoted(apps))")
        }
        // What built is assembled; what did not fails the command, so that a script notices.
        return skipped.isEmpty ? 0 : 1
    }

    /// The generated package depends on the SDK by path: it must be a wallet-host checkout.
    private func checkSDK() throws {
        let manifest = sdk.appendingPathComponent("Package.swift")
        guard let text = FileManager.default.contents(atPath: manifest.path).map({ String(decoding: $0, as: UTF8.self) }) else {
            throw ImportError("the SDK checkout \(sdk.path) has no Package.swift (this wallet-host was built elsewhere or the checkout moved); "
                + "pass --sdk with the path of a wallet-host checkout")
        }
        guard text.contains("\"WalletExtensionKit\"") else {
            throw ImportError("\(manifest.path) does not declare the WalletExtensionKit product; --sdk must name a wallet-host checkout")
        }
    }
}
