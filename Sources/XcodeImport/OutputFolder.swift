import Foundation

/// `--out`: where `import` writes, and replaces what an earlier import wrote (`Package.swift`,
/// `Sources/`, `Tests/`, `apps/`). It must be apart from the project (else replacing `Sources/`
/// would delete the issuer's code), and what it replaces must be an import's: the first import
/// leaves ``markerFile`` there, and a folder holding those names without it is refused.
public struct OutputFolder {
    /// The file that marks a folder as made by `import`.
    public static let markerFile = ".wallet-host-import"
    /// What each import replaces.
    public static let replaced = ["Package.swift", "Sources", "Tests", "apps"]

    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    /// Checks that `url` may be written, then marks it as an import's.
    /// - Parameter projectFolders: The project's source root and the folder holding its `.xcodeproj`.
    /// - Throws: ``ImportError`` when `url` is, holds or is inside one of them, or holds what an
    ///   import replaces without being marked as an import's.
    public func prepare(apartFrom projectFolders: [URL]) throws {
        let out = Self.components(url)
        for folder in projectFolders {
            let project = Self.components(folder)
            let relation = out == project ? "is" : out.starts(with: project) ? "is inside" : project.starts(with: out) ? "holds" : nil
            if let relation {
                throw ImportError("--out \(url.path) \(relation) the project's folder \(folder.path); each import replaces "
                    + "\(Self.replaced.joined(separator: ", ")) in --out, so it must be a folder apart from the project")
            }
        }
        let marker = url.appendingPathComponent(Self.markerFile)
        if !FileManager.default.fileExists(atPath: marker.path) {
            let found = Self.replaced.filter { FileManager.default.fileExists(atPath: url.appendingPathComponent($0).path) }
            guard found.isEmpty else {
                throw ImportError("--out \(url.path) holds \(found.joined(separator: ", ")) but no \(Self.markerFile), so they were not "
                    + "made by wallet-host import, which would replace them; choose a new or empty folder")
            }
        }
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try Data("Made by wallet-host import: each import replaces \(Self.replaced.joined(separator: ", ")) here; seed/ is yours.\n".utf8)
            .write(to: marker)
    }

    /// The path's components with symbolic links resolved, as far as the path exists.
    private static func components(_ url: URL) -> [String] {
        url.standardizedFileURL.resolvingSymlinksInPath().pathComponents
    }
}
