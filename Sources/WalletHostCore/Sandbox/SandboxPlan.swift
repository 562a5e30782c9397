import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What one sandboxed process may see, in one place: every path it is shown (at the same
/// absolute path as outside, so that every path the host gives it stays valid), read-only or
/// read-write, and the user it runs as.
///
/// Shown read-only: the system (``systemPaths``, the Swift runtime's directory), the `.appex`,
/// the sandbox init. Read-write: the extension's own App Group containers and the directories
/// the host names in its environment (``writableEnvironmentVariables``). Besides: a fresh
/// `/proc` of its own PID namespace, a minimal `/dev` and a private `/tmp`. Nothing else: not
/// the state directory (passes, device settings, logs), not other issuers' containers, not
/// other bundles, not the host's home.
public struct SandboxPlan: Sendable, Equatable {
    /// A path shown to the process.
    public struct Grant: Sendable, Equatable {
        public var path: String
        public var writable: Bool
        public init(path: String, writable: Bool) {
            self.path = path
            self.writable = writable
        }
    }

    /// Every path shown, parents before what lies under them.
    public private(set) var grants: [Grant]
    /// The sandbox init (PID 1 of the namespace, which starts the extension).
    public var initPath: String
    /// When the host is root: the unprivileged user and group the process runs as, so that
    /// `RLIMIT_NPROC` (counted per user) bounds it. Nil: it keeps the host's user, in a user namespace.
    public var runAs: (uid: UInt32, gid: UInt32)?
    /// The size of the private `/tmp`.
    public var temporaryBytes = 128 << 20

    /// The user and group a root host runs extensions as: `nobody`/`nogroup` on Debian.
    public static let unprivilegedID: UInt32 = 65534

    /// Whether sandboxed processes run as ``unprivilegedID`` (the host is root) rather than as
    /// the host's user in a user namespace.
    public static var runsAsUnprivilegedUser: Bool { geteuid() == 0 }

    /// System directories shown read-only where they exist: libraries, interpreters (python3),
    /// `/etc` (name resolution, certificates, `ld.so.cache`; `/etc/shadow` stays unreadable to
    /// an unprivileged user) and `/sys`.
    public static let systemPaths = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/sys"]

    /// Environment variables whose value, when an absolute path, is a directory the host gives
    /// the process to write in: shown read-write. (`XDG_CONFIG_HOME` is where Foundation keeps
    /// `UserDefaults`.)
    public static let writableEnvironmentVariables = ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"]

    public static func == (lhs: SandboxPlan, rhs: SandboxPlan) -> Bool {
        lhs.grants == rhs.grants && lhs.initPath == rhs.initPath && lhs.runAs?.uid == rhs.runAs?.uid
            && lhs.runAs?.gid == rhs.runAs?.gid && lhs.temporaryBytes == rhs.temporaryBytes
    }

    /// The plan for one process.
    /// - Parameters:
    ///   - readOnly: its bundle and anything else it may read.
    ///   - writable: its App Group containers.
    ///   - environment: its environment; the directories in ``writableEnvironmentVariables`` are shown read-write.
    ///   - initPath: the sandbox init.
    public init(readOnly: [String], writable: [String], environment: [String: String], initPath: String) {
        self.initPath = initPath
        runAs = Self.runsAsUnprivilegedUser ? (Self.unprivilegedID, Self.unprivilegedID) : nil
        let environmentPaths = Self.writableEnvironmentVariables.compactMap { environment[$0] }.filter { $0.hasPrefix("/") }
        var byPath: [String: Bool] = [:]
        func add(_ path: String, writable: Bool) {
            for variant in Self.variants(of: path) { byPath[variant] = (byPath[variant] ?? false) || writable }
        }
        (Self.systemPaths + Self.runtimeDirectories + readOnly + [initPath]).forEach { add($0, writable: false) }
        (writable + environmentPaths).forEach { add($0, writable: true) }
        // Sorted, a parent comes before its children ("/a" < "/a/b"), so an inner grant is bound over an outer one;
        // one inside a grant of the same kind is shown already (/usr/bin, the real path of /bin, in /usr).
        var sorted: [Grant] = []
        for (path, writable) in byPath.sorted(by: { $0.key < $1.key }) {
            let enclosing = sorted.last { path.hasPrefix($0.path == "/" ? "/" : $0.path + "/") }
            if enclosing?.writable != writable { sorted.append(Grant(path: path, writable: writable)) }
        }
        grants = sorted
    }

    /// The path as given, and as it resolves when a link lies on it: the sandbox copies a final
    /// link as a link, so its target must be shown too.
    private static func variants(of path: String) -> [String] {
        let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
        guard let resolved = realpath(standardized, nil) else { return [standardized] }
        defer { free(resolved) }
        let real = String(cString: resolved)
        return real == standardized ? [standardized] : [standardized, real]
    }

    /// Directories of the Swift runtime (and any other shared library) the host itself loaded
    /// from outside the system paths: the extensions built with the same toolchain need them.
    static let runtimeDirectories: [String] = {
        // Read to the end by hand: /proc files report a size of zero.
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/maps"),
              let data = try? handle.readToEnd() else { return [] }
        try? handle.close()
        let maps = String(decoding: data, as: UTF8.self)
        var directories = Set<String>()
        for line in maps.split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/"), line.hasSuffix(".so") || line.contains(".so.") else { continue }
            let path = String(line[slash...])
            let directory = (path as NSString).deletingLastPathComponent
            if !systemPaths.contains(where: { directory == $0 || directory.hasPrefix($0 + "/") }) {
                directories.insert(directory)
            }
        }
        return directories.sorted()
    }()

    /// The writable paths, for ``prepareWritablePaths()``.
    public var writablePaths: [String] { grants.filter(\.writable).map(\.path) }

    /// When the process runs as another user: gives it its writable paths (the directories and
    /// everything in them), so that it can write there and the files it leaves stay its own.
    public func prepareWritablePaths() {
        guard let runAs else { return }
        Self.giveOwnership(of: writablePaths, to: runAs)
    }

    /// When extensions run as ``unprivilegedID`` (the host is root): gives them `paths` and
    /// everything in them. A containing app runs as the host's user and leaves its App Group
    /// files as root's, `UserDefaults` files mode 0600 among them; after it ran, its
    /// containers go to the extensions' user, so that an extension already running reads what
    /// the app wrote, as one launched afterwards does.
    public static func giveToUnprivilegedUser(_ paths: [String]) {
        guard runsAsUnprivilegedUser else { return }
        giveOwnership(of: paths, to: (unprivilegedID, unprivilegedID))
    }

    private static func giveOwnership(of paths: [String], to owner: (uid: UInt32, gid: UInt32)) {
        for root in paths {
            changeOwner(root, to: owner)
            guard let entries = FileManager.default.enumerator(atPath: root) else { continue }
            for case let entry as String in entries {
                changeOwner(root + "/" + entry, to: owner)
            }
        }
    }

    private static func changeOwner(_ path: String, to owner: (uid: UInt32, gid: UInt32)) {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_uid != owner.uid || status.st_gid != owner.gid else { return }
        _ = lchown(path, owner.uid, owner.gid)
    }

    /// The sandbox init beside the running executable (wallet-host, or the test runner in the
    /// same build directory).
    public static var defaultInitPath: String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return (executable as NSString).deletingLastPathComponent + "/WalletSandboxInit"
    }
}
