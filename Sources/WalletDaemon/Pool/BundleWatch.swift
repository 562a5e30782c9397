import Synchronization
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
/// them), and the executable's and Info.plist's own files (a write through another hard link).
public final class BundleWatch: Sendable {
    /// The inotify descriptor (closed with this object, never before: calls read it).
    let descriptor: Int32
    /// Even while the watcher waits with nothing read; odd from the moment it wakes for a change
    /// until the reload after it is done (and the folders it added are watched).
    private let generation = Atomic<Int>(0)
    /// The `.appex` folders (standardized paths) watched with every folder above them, as of the
    /// watcher's last pass over the apps directory.
    private let coveredBundles = Mutex<Set<String>>([])

    /// The events a bundle's own two files are watched for.
    private static let fileMask = UInt32(IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_DELETE_SELF | IN_MOVE_SELF)

    /// Nil when the system gives no inotify descriptor (`errno` says why).
    init?() {
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
    }

    deinit {
        close(descriptor)
    }

    /// A token for the bundle at `appex` (a standardized path), or nil when the watch cannot
    /// vouch for it now: not covered, its files not directly in it or not watchable, a change
    /// unread or being taken in. Check the files on disk *after* taking it: a change before the
    /// token is not its business, one after it shows in ``isUnchanged(since:)``.
    public func token(forAppex appex: String, files: BundleFingerprint.Files) -> Int? {
        guard !hasUnreadEvents() else { return nil }
        let current = generation.load(ordering: .sequentiallyConsistent)
        guard current % 2 == 0, coveredBundles.withLock({ $0.contains(appex) }) else { return nil }
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
    }

    private func hasUnreadEvents() -> Bool {
        var unread: Int32 = 0
        return ioctl(descriptor, UInt(FIONREAD), &unread) != 0 || unread != 0
    }

    // MARK: The watcher's side

    /// The watcher woke for events: called before it reads them (and when it stops, for good).
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
}
