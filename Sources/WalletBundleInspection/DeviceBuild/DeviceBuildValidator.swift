import Foundation
import ExtensionModel

/// Validates what Xcode ships, as a device would see it: an `.ipa`, an `.xcarchive` or a built
/// `.app` (one whose executable is Mach-O). Nothing is unpacked to disk.
///
/// Every finding names its check (``DeviceBuildCheck``) and, in its sentence, what a device
/// does with a build that has the problem.
public struct DeviceBuildValidator: Sendable {
    /// The extension points whose extensions get Wallet's checks (other extensions, such as
    /// widgets, get only the checks every extension needs).
    public var registry: ExtensionPointRegistry
    /// The platform rules: required entitlement, minimum OS version, App Group error name.
    public var policy: BundlePolicy
    /// The target iOS version and the date profiles are judged at.
    public var options: DeviceBuildOptions

    /// Creates a validator.
    public init(registry: ExtensionPointRegistry, policy: BundlePolicy, options: DeviceBuildOptions = DeviceBuildOptions()) {
        self.registry = registry
        self.policy = policy
        self.options = options
    }

    /// The largest `.ipa` read: 4 GiB, the most a zip without ZIP64 can address.
    static let archiveByteLimit = Int(UInt32.max)

    private typealias Key = ValidationFinding.Key

    /// Whether a `.app` directory is a device build (its `CFBundleExecutable` is Mach-O) rather
    /// than a bundle assembled for the host.
    public static func isDeviceBuild(app url: URL) -> Bool {
        let tree = DirectoryFileTree(root: url)
        guard case .success(let info) = try? DeviceBundleReader.dictionary(from: tree.read("Info.plist", limit: PropertyListFile.byteLimit)),
              let executable = info[Key.bundleExecutable]?.stringValue, !executable.contains("/") else { return false }
        let executablePath = url.appendingPathComponent(executable).resolvingSymlinksInPath().path
        // Only a regular file is opened: reading a FIFO would block.
        guard (try? FileManager.default.attributesOfItem(atPath: executablePath)[.type]) as? FileAttributeType == .typeRegular,
              let handle = FileHandle(forReadingAtPath: executablePath) else { return false }
        defer { try? handle.close() }
        return MachOExecutable.hasMachOMagic((try? handle.read(upToCount: 4)) ?? Data())
    }

    /// Validates the path when it is a device build: an `.ipa` file (or one unpacked into a
    /// directory of that name), an `.xcarchive` directory, or a `.app` directory whose executable is Mach-O.
    /// - Returns: The findings and bundle count, or nil when the path is none of these.
    public func validateIfDeviceBuild(_ url: URL, isDirectory: Bool) -> (findings: [ValidationFinding], bundleCount: Int)? {
        switch (url.pathExtension, isDirectory) {
        case ("ipa", false): validate(ipa: url)
        case ("ipa", true):
            validateApps(in: DirectoryFileTree(root: url), directory: "Payload",
                         layout: "an unpacked .ipa holds its app as Payload/NAME.app", findings: [])
        case ("xcarchive", true): validate(xcarchive: url)
        case ("app", true) where Self.isDeviceBuild(app: url): validate(app: url)
        default: nil
        }
    }

    /// Validates an `.ipa`: a zip archive holding `Payload/NAME.app`.
    /// - Returns: Every finding and how many bundles were read.
    public func validate(ipa url: URL) -> (findings: [ValidationFinding], bundleCount: Int) {
        var findings: [ValidationFinding] = []
        let data: Data
        do {
            let size = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
            guard size <= Self.archiveByteLimit else {
                findings.append(.error, .container, url.path, Key.file, "is \(HumanReadable.megabytes(size)), over the 4 GB a zip without ZIP64 can hold")
                return (findings, 0)
            }
            data = try Data(contentsOf: url, options: .alwaysMapped)
        } catch {
            findings.append(.error, .container, url.path, Key.file, "cannot be read (\(error.localizedDescription))")
            return (findings, 0)
        }
        let archive: ZipArchive
        do {
            archive = try ZipArchive(data: data)
        } catch {
            findings.append(.error, .container, url.path, Key.file, error.description)
            return (findings, 0)
        }
        let tree = ZipFileTree(archivePath: url.path, archive: archive)
        for (name, problem) in archive.entryProblems {
            findings.append(.error, .container, tree.displayPath(name), Key.file, problem)
        }
        return validateApps(in: tree, directory: "Payload", layout: "an .ipa holds its app as Payload/NAME.app", findings: findings)
    }

    /// Validates an `.xcarchive`: a directory holding `Products/Applications/NAME.app`.
    public func validate(xcarchive url: URL) -> (findings: [ValidationFinding], bundleCount: Int) {
        validateApps(in: DirectoryFileTree(root: url), directory: "Products/Applications",
                     layout: "an .xcarchive holds its app as Products/Applications/NAME.app", findings: [])
    }

    /// Validates a built `.app` directory.
    public func validate(app url: URL) -> (findings: [ValidationFinding], bundleCount: Int) {
        let tree = DirectoryFileTree(root: url.deletingLastPathComponent())
        var findings: [ValidationFinding] = []
        let count = validateApp(in: tree, at: url.lastPathComponent, findings: &findings)
        return (findings, count)
    }

    private func validateApps(in tree: any BuildFileTree, directory: String, layout: String, findings: [ValidationFinding]) -> (findings: [ValidationFinding], bundleCount: Int) {
        var findings = findings
        let apps = tree.childNames(of: directory).filter { $0.hasSuffix(".app") && tree.isDirectory(treePath(directory, $0)) }
        guard !apps.isEmpty else {
            findings.append(.error, .container, tree.displayPath(""), Key.file, "holds no \(directory)/NAME.app; \(layout)")
            return (findings, 0)
        }
        if apps.count > 1 {
            findings.append(.error, .container, tree.displayPath(directory), Key.file,
                            "holds \(apps.count) apps (\(apps.joined(separator: ", "))); a build holds exactly one, so each was checked on its own")
        }
        var count = 0
        for app in apps {
            count += validateApp(in: tree, at: treePath(directory, app), findings: &findings)
        }
        return (findings, count)
    }

    /// Reads one app with its extensions and runs every check. Returns how many bundles were read.
    private func validateApp(in tree: any BuildFileTree, at path: String, findings: inout [ValidationFinding]) -> Int {
        let reader = DeviceBundleReader(tree: tree)
        let plugIns = treePath(path, Key.plugIns)
        let extensionPaths = tree.childNames(of: plugIns).filter { $0.hasSuffix(".appex") }.map { treePath(plugIns, $0) }
        let app = reader.read(bundleAt: path, findings: &findings)
        let extensions = extensionPaths.compactMap { reader.read(bundleAt: $0, findings: &findings) }
        guard let app else { return 1 + extensionPaths.count }
        let walletExtensions = extensions.filter { registry.point($0.extensionPointIdentifier ?? "") != nil }
        let build = DeviceBuild(app: app, extensions: extensions, walletExtensions: walletExtensions)
        EntitlementChecks(policy: policy).run(on: build, findings: &findings)
        ExtensionSetChecks(registry: registry, policy: policy).run(on: build, findings: &findings)
        InfoPlistChecks(policy: policy, options: options).run(on: build, findings: &findings)
        ProvisioningChecks(options: options).run(on: build, findings: &findings)
        return 1 + extensionPaths.count
    }
}
