import Foundation

/// One `.app` or `.appex` folder written from its parts: the manifests, the built executable and
/// the resources. The last step that `import` (``XcodeImport``'s assembler) and `bundle` share,
/// so that both make the same layout.
public struct BundleFolder: Sendable {
    /// A file copied into the bundle.
    public struct Resource: Sendable {
        /// The file (or folder, copied whole) to copy.
        public var source: URL
        /// Its path inside the bundle (`card.png`, `en.lproj/Localizable.strings`, `seed/keychain.json`).
        public var destination: String

        public init(source: URL, destination: String) {
            self.source = source
            self.destination = destination
        }
    }

    /// The bundle folder to write (`.../Bank.app`, `.../PlugIns/BankCards.appex`).
    public var url: URL
    /// The Info.plist's bytes, written as they are.
    public var infoPlist: Data
    /// The entitlements' bytes, written as `EXECUTABLE.entitlements`, if any.
    public var entitlements: Data?
    /// The built executable to copy in.
    public var builtExecutable: URL
    /// Its name in the bundle (`CFBundleExecutable`).
    public var executableName: String
    /// Who the bundle is made from, for errors: `target BankCards`, `product BankCards`.
    public var owner: String
    /// The files to copy in besides the executable and the manifests.
    public var resources: [Resource]

    public init(url: URL, infoPlist: Data, entitlements: Data?, builtExecutable: URL, executableName: String, owner: String,
                resources: [Resource] = []) {
        self.url = url
        self.infoPlist = infoPlist
        self.entitlements = entitlements
        self.builtExecutable = builtExecutable
        self.executableName = executableName
        self.owner = owner
        self.resources = resources
    }

    /// Writes the folder (which may exist: its files are replaced).
    /// - Throws: ``BundleAssemblyError`` naming an executable that was not built, a resource that
    ///   does not exist, or a file that cannot be written.
    public func write() throws {
        let fileManager = FileManager.default
        do {
            try fileManager.createDirectory(at: url, withIntermediateDirectories: true)
            try infoPlist.write(to: url.appendingPathComponent("Info.plist"))
            if let entitlements {
                try entitlements.write(to: url.appendingPathComponent("\(executableName).entitlements"))
            }
        } catch {
            throw BundleAssemblyError("\(url.path): cannot write the manifests of \(owner): \(error.localizedDescription)")
        }
        guard fileManager.isExecutableFile(atPath: builtExecutable.path) else {
            throw BundleAssemblyError("\(builtExecutable.path): the executable of \(owner) was not built")
        }
        let executable = url.appendingPathComponent(executableName)
        try replace(executable, with: builtExecutable)
        for resource in resources {
            guard fileManager.fileExists(atPath: resource.source.path) else {
                throw BundleAssemblyError("\(owner): resource \(resource.source.path) does not exist")
            }
            let destination = url.appendingPathComponent(resource.destination)
            try replace(destination, with: resource.source)
        }
    }

    private func replace(_ destination: URL, with source: URL) throws {
        let fileManager = FileManager.default
        do {
            try fileManager.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            if (try? fileManager.attributesOfItem(atPath: destination.path)) != nil { try fileManager.removeItem(at: destination) }
            try fileManager.copyItem(at: source.resolvingSymlinksInPath(), to: destination)
        } catch {
            throw BundleAssemblyError("\(owner): cannot copy \(source.path) to \(destination.path): \(error.localizedDescription)")
        }
    }
}
