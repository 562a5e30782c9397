import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What `import` may read: the project's directory (the one holding the `.xcodeproj`), the SDK
/// checkout, and what the user names with `--allow-outside`; nothing else. A project is the
/// issuer's, and what it names ends up in a bundle the issuer's extension reads: a Copy Bundle
/// Resources file at `~/.ssh/id_rsa`, or an `.xcconfig` `#include` of `~/.aws/credentials` (whose
/// lines parse as settings and expand into the Info.plist), would carry the importing user's
/// secrets into it. Paths are compared with every symbolic link resolved: a link inside the
/// project that points outside is outside.
public struct ProjectBoundary: Sendable {
    /// The project's directory, resolved.
    public let projectDirectory: URL
    /// Every directory or file that may be read, resolved: the project's directory first.
    public let allowed: [URL]

    /// - Parameters:
    ///   - projectDirectory: The directory holding the `.xcodeproj`.
    ///   - sdk: The wallet-host checkout the package depends on (`--sdk`), if any.
    ///   - allowedOutside: What the user allowed (`--allow-outside PATH`): a file, or a directory and everything in it.
    public init(projectDirectory: URL, sdk: URL? = nil, allowedOutside: [URL] = []) {
        let project = URL(fileURLWithPath: Self.resolved(projectDirectory.path))
        self.projectDirectory = project
        allowed = [project] + ([sdk].compactMap { $0 } + allowedOutside).map { URL(fileURLWithPath: Self.resolved($0.path)) }
    }

    /// Whether `url` (its links resolved) is one of ``allowed`` or inside one of them.
    public func admits(_ url: URL) -> Bool {
        let path = Self.resolved(url.path)
        return allowed.contains { root in
            let rootPath = root.path
            return path == rootPath || path.hasPrefix(rootPath == "/" ? "/" : rootPath + "/")
        }
    }

    /// nil when `url` may be read; else the line that says it is not (what it is, where it
    /// resolves to when that differs, and the option that would let it be read).
    /// - Parameter what: What the file is to the project ("Copy Bundle Resources file", "#include").
    public func refusal(of url: URL, what: String) -> String? {
        guard !admits(url) else { return nil }
        let resolved = Self.resolved(url.path)
        let through = resolved == url.standardizedFileURL.path ? "" : " (it resolves to \(resolved))"
        return "\(what) \(url.path)\(through) is outside the project directory \(projectDirectory.path); "
            + "not read (--allow-outside \(url.path) would read it)"
    }

    /// `path` with every symbolic link resolved (realpath); for a path that does not exist (yet),
    /// its longest existing parent resolved and the rest appended, so that a missing file behind a
    /// link is still placed where the link leads.
    static func resolved(_ path: String) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        if let real = realpath(absolute, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        let parent = (absolute as NSString).deletingLastPathComponent
        guard parent != absolute, !parent.isEmpty else { return absolute }
        return (resolved(parent) as NSString).appendingPathComponent((absolute as NSString).lastPathComponent)
    }
}
