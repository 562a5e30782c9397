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
/// `/proc` of its own PID namespace, a minimal `/dev`, a private `/tmp` and `/dev/shm` (fresh at
/// each launch, bounded in size and files). Nothing else: not
/// the state directory (passes, device settings, logs), not other issuers' containers, not
/// other bundles, not the host's home.
///
/// A read-write path is one the extension can change, so it is never resolved by name: its
/// parent is resolved here, by the host, and the sandbox reaches the path's last component
/// from that parent without following any symbolic link (see ``Grant/anchor``). A link the
/// extension planted fails the launch instead of showing (and handing over) what it points at.
public struct SandboxPlan: Sendable, Equatable {
    /// A path shown to the process.
    public struct Grant: Sendable, Equatable {
        /// Where the process sees it.
        public var path: String
        public var writable: Bool
        /// For a read-write path: the directory it lies in, as the host resolved it (every link
        /// on the way followed once, here), and ``name``, the path's last component, which the
        /// sandbox opens beneath it following no link. Nil for read-only paths, bound by name.
        public var anchor: String?
        public var name: String?
        /// Shown without what is mounted under it (``pathsShownAlone``).
        public var alone: Bool

        public init(path: String, writable: Bool, anchor: String? = nil, name: String? = nil) {
            self.path = path
            self.writable = writable
            self.anchor = anchor
            self.name = name
            alone = SandboxPlan.pathsShownAlone.contains(path)
        }
    }

    /// Every path shown, parents before what lies under them.
    public private(set) var grants: [Grant]
    /// The sandbox init (PID 1 of the namespace, which starts the extension).
    public var initPath: String
    /// When the host is root: the unprivileged user and group the process runs as. Nil: it
    /// keeps the host's user, in a user namespace.
    public var runAs: (uid: UInt32, gid: UInt32)?
    /// The size of the private `/tmp`. An extension's runner sets its memory limit: the files
    /// there are memory, counted in its footprint.
    public var temporaryBytes = 128 << 20
    /// The most files and directories the private `/tmp` holds (tmpfs `nr_inodes`): each costs
    /// the kernel memory that no size counts.
    public var temporaryInodes = 4096
    /// The size of the private `/dev/shm`, a tmpfs of each launch's own (POSIX shared memory,
    /// `shm_open`), gone with it. An extension's runner sets its memory limit.
    public var sharedMemoryBytes = 128 << 20
    /// The most files the private `/dev/shm` holds.
    public var sharedMemoryInodes = 1024
    /// Whether launches copy a root built once for this plan (a root host only) rather than each
    /// building its own: the same file system, about 1 ms sooner (see `SandboxTemplates`).
    public var reusesRoot = true
    /// The process's network (``NetworkMode``): by default a namespace of its own whose only way
    /// out is the host's egress proxy.
    public var network = NetworkMode.proxy

    /// The user and group a root host runs extensions as: `nobody`/`nogroup` on Debian.
    public static let unprivilegedID: UInt32 = 65534

    /// Whether sandboxed processes run as ``unprivilegedID`` (the host is root) rather than as
    /// the host's user in a user namespace.
    public static var runsAsUnprivilegedUser: Bool { geteuid() == 0 }

    /// System directories shown read-only where they exist: libraries, interpreters (python3),
    /// `/etc` (name resolution, certificates, `ld.so.cache`; `/etc/shadow` stays unreadable to
    /// an unprivileged user) and `/sys`.
    public static let systemPaths = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/sys"]

    /// System paths shown without the file systems mounted under them: `/sys` without the host's
    /// control groups, debug and security file systems (an extension needs sysfs itself, for
    /// the number of processors; the rest is the host's business, and each mount shown costs
    /// every launch a copy).
    public static let pathsShownAlone: Set<String> = ["/sys"]

    /// Environment variables whose value, when an absolute path, is a directory the host gives
    /// the process to write in: shown read-write. (`XDG_CONFIG_HOME` is where Foundation keeps
    /// `UserDefaults`.)
    public static let writableEnvironmentVariables = ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"]

    public static func == (lhs: SandboxPlan, rhs: SandboxPlan) -> Bool {
        lhs.grants == rhs.grants && lhs.initPath == rhs.initPath && lhs.runAs?.uid == rhs.runAs?.uid
            && lhs.runAs?.gid == rhs.runAs?.gid && lhs.temporaryBytes == rhs.temporaryBytes && lhs.reusesRoot == rhs.reusesRoot
            && lhs.temporaryInodes == rhs.temporaryInodes && lhs.sharedMemoryBytes == rhs.sharedMemoryBytes
            && lhs.sharedMemoryInodes == rhs.sharedMemoryInodes
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
        // Read-only paths the host chose: a link on them is followed (its target shown too).
        for path in Self.systemPaths + Self.runtimeDirectories + readOnly + [initPath] {
            for variant in Self.variants(of: path) where byPath[variant] == nil { byPath[variant] = false }
        }
        // Read-write paths, only as given: what a link there points at is never shown.
        for path in writable + environmentPaths { byPath[Self.standardized(path)] = true }
        // Sorted, a parent comes before its children ("/a" < "/a/b"), so an inner grant is bound over an outer one;
        // one inside a grant of the same kind is shown already (/usr/bin, the real path of /bin, in /usr).
        var sorted: [Grant] = []
        for (path, writable) in byPath.sorted(by: { $0.key < $1.key }) {
            let enclosing = sorted.last { path.hasPrefix($0.path == "/" ? "/" : $0.path + "/") }
            guard enclosing?.writable != writable else { continue }
            sorted.append(writable ? Self.anchored(path) : Grant(path: path, writable: false))
        }
        grants = sorted
    }

    /// A read-write grant: its parent resolved now, its last component left to the sandbox.
    private static func anchored(_ path: String) -> Grant {
        let parent = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        guard let resolved = realpath(parent, nil) else {
            // Not there: the launch fails at this grant, naming it.
            return Grant(path: path, writable: true, anchor: parent, name: name)
        }
        defer { free(resolved) }
        return Grant(path: path, writable: true, anchor: String(cString: resolved), name: name)
    }

    private static func standardized(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// The path as given, and as it resolves when a link lies on it: the sandbox copies a final
    /// link as a link, so its target must be shown too.
    private static func variants(of path: String) -> [String] {
        let standardized = standardized(path)
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

    /// The read-write paths.
    public var writablePaths: [String] { grants.filter(\.writable).map(\.path) }

    /// The sandbox init beside the running executable (wallet-host, or the test runner in the
    /// same build directory).
    public static var defaultInitPath: String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return (executable as NSString).deletingLastPathComponent + "/WalletSandboxInit"
    }
}
