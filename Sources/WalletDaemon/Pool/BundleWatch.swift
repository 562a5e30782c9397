import CWalletFileSystem
import Synchronization
import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

/// What the apps directory's watch (``AppsWatcher``) can vouch for, so that a warm call need not
/// look at the disk to know its bundle was not rebuilt: two `lstat`s per call become one
/// `ioctl`.
///
/// The watch is an inotify descriptor. A change to a watched file or folder queues an event in
/// it at once, in the system call that made the change, so a change made before a call arrived
/// is either still unread in the descriptor or was read by the watcher, which counts a
/// ``generation`` *before* it reads. A caller therefore takes a ``token(forAppex:files:)``
/// once, after which ``isUnchanged(since:)`` (nothing unread, the same generation) means nothing
/// under the watch changed since.
///
/// A bundle is vouched for only when the watch covers it whole: the apps directory, its `.app`,
/// `PlugIns` and `.appex` folders (renames, creations, deletions, writes, attribute changes in
/// them), each folder above the apps directory (renamed or removed), and the executable's and
/// Info.plist's own files (a write through another hard link). Not covered, so checked on disk
/// at every call: a bundle whose path goes through a symbolic link (the watch would follow it,
/// and miss the link pointed elsewhere), and one on a file system whose changes may come from
/// another machine or kernel (NFS, FUSE, 9p, virtiofs: no event for those). A file system
/// mounted over a folder of the path is not seen either.
public final class BundleWatch: Sendable {
    /// The inotify descriptor (closed with this object, never before: calls read it).
    let descriptor: Int32
    /// Even while the watcher waits with nothing read; odd from the moment it wakes for a change
    /// until the reload after it is done (and the folders it added are watched).
    private let generation = Atomic<Int>(0)
    /// The `.appex` folders (standardized paths) watched with every folder above them, as of the
    /// watcher's last pass over the apps directory.
    private let coveredBundles = Mutex<Set<String>>([])
    /// The watch stopped: it vouches for nothing.
    private let retired = Atomic<Bool>(false)

    /// The events a bundle's own two files are watched for.
    private static let fileMask = UInt32(IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_DELETE_SELF | IN_MOVE_SELF)

    /// Nil when the system gives no inotify descriptor (`errno` says why).
    init?() {
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
    }

    deinit {
        SystemCall.close(descriptor)
    }

    /// A token for the bundle at `appex` (a standardized path), or nil when the watch cannot
    /// vouch for it now: not covered, its files not directly in it or not watchable, a change
    /// unread or being taken in. Check the files on disk *after* taking it: a change before the
    /// token is not its business, one after it shows in ``isUnchanged(since:)``.
    public func token(forAppex appex: String, files: BundleFingerprint.Files) -> Int? {
        guard !hasUnreadEvents() else { return nil }
        let current = generation.load(ordering: .sequentiallyConsistent)
        guard current % 2 == 0, !retired.load(ordering: .sequentiallyConsistent),
              coveredBundles.withLock({ $0.contains(appex) }) else { return nil }
        for file in [files.executable, files.infoPlist] {
            guard file.hasPrefix(appex + "/"), !file.dropFirst(appex.count + 1).contains("/"),
                  inotify_add_watch(descriptor, file, Self.fileMask | UInt32(IN_DONT_FOLLOW)) >= 0 else { return nil }
        }
        return current
    }

    /// Whether nothing under the watch changed since `token` was taken: no event unread, and
    /// none read since.
    public func isUnchanged(since token: Int) -> Bool {
        !hasUnreadEvents() && generation.load(ordering: .sequentiallyConsistent) == token
            && !retired.load(ordering: .sequentiallyConsistent)
    }

    private func hasUnreadEvents() -> Bool {
        var unread: Int32 = 0
        return ioctl(descriptor, UInt(FIONREAD), &unread) != 0 || unread != 0
    }

    // MARK: The watcher's side

    /// The watcher woke for events: called before it reads them.
    func changeBegins() {
        generation.add(1, ordering: .sequentiallyConsistent)
    }

    /// The reload after a change is done and the folders it added are watched.
    func changeSettled() {
        generation.add(1, ordering: .sequentiallyConsistent)
    }

    /// The `.appex` folders now watched with every folder above them.
    func cover(_ bundles: Set<String>) {
        coveredBundles.withLock { $0 = bundles }
    }

    /// The watch stopped: no token from now on, and none taken before holds.
    func retire() {
        retired.store(true, ordering: .sequentiallyConsistent)
    }

    /// Whether the watch can vouch for the folder at `path`: it is the path itself, no symbolic
    /// link on the way, on a file system changed only through this kernel.
    static func canCover(_ path: String) -> Bool {
        guard let resolved = realpath(path, nil) else { return false }
        defer { free(resolved) }
        guard String(cString: resolved) == path else { return false }
        return localFileSystems.contains(wh_file_system_type(path))
    }

    /// ext2-4, XFS, Btrfs, tmpfs, overlayfs (a container's: its lower layers do not change
    /// while it runs), F2FS, ZFS.
    private static let localFileSystems: Set<Int64> = [0xEF53, 0x5846_5342, 0x9123_683E, 0x0102_1994, 0x794C_7630,
                                                      0xF2F5_2010, 0x2FC1_2FC1]
}
