import CWalletSpawn
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Sandbox roots built once per plan and copied by each launch (a root host only; see
/// `wallet_sandbox_template.c`): a launch then pays for a private copy of the root, a private
/// `/tmp`, a fresh `/proc` and the paths an extension can write, not for the whole file system.
///
/// A template is built again when a path it shows was replaced (a rebuilt `.appex` is a new
/// directory), and is left out altogether when it cannot be built: each launch then builds its
/// own root, which fails the launch if it cannot be built either.
///
/// Building a root ends with detaching the host's root from it, which waits for a grace period
/// of the kernel's RCU (2-20 ms, most of it waiting, not working): ``prepare(_:)`` builds the
/// template on a thread of its own as soon as a runner knows its plan, so that the wait overlaps
/// the rest of the launch's work, and even a one-shot command's only launch copies it.
enum SandboxTemplates {
    fileprivate struct Entry {
        var descriptor: Int32
        /// Device and inode of every path the template shows, as it was built.
        var identities: [FileIdentity]
        var lastUse: UInt64
    }

    fileprivate struct FileIdentity: Equatable {
        var device: UInt64
        var inode: UInt64
    }

    fileprivate struct Cache {
        var entries: [String: Entry] = [:]
        /// Plans launched once without a template, as their keys' hashes (a key is a few hundred
        /// bytes; 100 of them held 66 KB): the second launch builds one. Two plans of one hash
        /// would only build the second one's template at its first launch.
        var launchedOnce: Set<Int> = []
        var uses: UInt64 = 0
        /// Templates being built ahead (``prepare(_:)``), by key: left when the build is over.
        var building: [String: DispatchGroup] = [:]
    }

    /// Templates kept at most (each holds a small mount namespace and one descriptor).
    static let capacity = 64

    private static let cache = Mutex(Cache())

    /// The template descriptor for `plan`, built with `config` (whose `template_fd` is -1) when
    /// there is none yet or what it shows changed; -1 when the plan takes none (a host that is
    /// not root), it cannot be built, or this is the plan's first launch in this process and
    /// none was prepared ahead (``prepare(_:)``; a one-shot command launches once: building a
    /// template there, on the launch's path, to copy it once costs more). A template being built
    /// ahead is waited for.
    static func descriptor(for plan: SandboxPlan, config: UnsafePointer<wh_sandbox_config>) -> Int32 {
        guard plan.runAs != nil, plan.reusesRoot else { return -1 }
        let key = Self.key(plan)
        // One being built ahead is nearer done than a new one.
        cache.withLock { $0.building[key] }?.wait()
        let identities = Self.identities(plan)
        var released: [Int32] = []
        defer { released.forEach(SystemCall.close) }
        return cache.withLock { cache -> Int32 in
            cache.uses += 1
            if let entry = cache.entries[key] {
                if entry.identities == identities {
                    cache.entries[key]?.lastUse = cache.uses
                    return entry.descriptor
                }
                released.append(entry.descriptor)
                cache.entries[key] = nil
            } else if cache.launchedOnce.insert(key.hashValue).inserted {
                return -1
            }
            var descriptor: Int32 = -1
            var error: Int32 = 0
            var stage: Int32 = 0
            guard wh_sandbox_make_template(config, &descriptor, &error, &stage) == 0 else { return -1 }
            released += cache.keep(Entry(descriptor: descriptor, identities: identities, lastUse: cache.uses), for: key)
            return descriptor
        }
    }

    /// Starts building `plan`'s template on a thread of its own, unless it has one or one is on
    /// its way: the launch that needs it (``descriptor(for:config:)``) waits for what is left of
    /// the build. Does nothing for a plan that takes none.
    static func prepare(_ plan: SandboxPlan) {
        guard plan.runAs != nil, plan.reusesRoot else { return }
        let key = Self.key(plan)
        let group = cache.withLock { cache -> DispatchGroup? in
            guard cache.entries[key] == nil, cache.building[key] == nil else { return nil }
            let group = DispatchGroup()
            group.enter()
            cache.building[key] = group
            return group
        }
        guard let group else { return }
        let started = DetachedThread.start(name: "sandbox-root", stackBytes: 256 << 10) {
            let identities = Self.identities(plan)
            var descriptor: Int32 = -1
            var error: Int32 = 0
            var stage: Int32 = 0
            let built = plan.withRootConfiguration { wh_sandbox_make_template($0, &descriptor, &error, &stage) } == 0
            let released = cache.withLock { cache -> [Int32] in
                cache.building[key] = nil
                cache.uses += 1
                guard built else { return [] }
                return cache.keep(Entry(descriptor: descriptor, identities: identities, lastUse: cache.uses), for: key)
            }
            group.leave()
            released.forEach(SystemCall.close)
        }
        if started != 0 {
            cache.withLock { $0.building[key] = nil }
            group.leave()
        }
    }

    private static func key(_ plan: SandboxPlan) -> String {
        plan.grants.map { "\($0.path)\u{0}\($0.writable)\u{0}\($0.anchor ?? "")\u{0}\($0.name ?? "")" }
            .joined(separator: "\u{1}") + "\u{1}" + plan.initPath
    }

    /// The paths a template shows itself: not those shown anew at each launch.
    private static func identities(_ plan: SandboxPlan) -> [FileIdentity] {
        plan.grants.filter { $0.anchor == nil && !($0.path == "/tmp" || $0.path.hasPrefix("/tmp/")) }.map { grant in
            var status = stat()
            guard lstat(grant.path, &status) == 0 else { return FileIdentity(device: 0, inode: 0) }
            return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        }
    }
}

private extension SandboxTemplates.Cache {
    /// Keeps `entry` as `key`'s template, letting go of the one it replaces and of the least
    /// recently used one past ``SandboxTemplates/capacity``.
    /// - Returns: the descriptors to close, once out of the lock (the last close of a mount
    ///   namespace waits for a grace period of RCU's).
    mutating func keep(_ entry: SandboxTemplates.Entry, for key: String) -> [Int32] {
        var released: [Int32] = []
        if let old = entries[key] { released.append(old.descriptor) }
        if entries[key] == nil, entries.count >= SandboxTemplates.capacity,
           let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            released.append(oldest.value.descriptor)
            entries[oldest.key] = nil
        }
        entries[key] = entry
        return released
    }
}
