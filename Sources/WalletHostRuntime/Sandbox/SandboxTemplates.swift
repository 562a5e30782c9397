import CWalletSpawn
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
enum SandboxTemplates {
    private struct Entry {
        var descriptor: Int32
        /// Device and inode of every path the template shows, as it was built.
        var identities: [FileIdentity]
        var lastUse: UInt64
    }

    private struct FileIdentity: Equatable {
        var device: UInt64
        var inode: UInt64
    }

    private struct Cache {
        var entries: [String: Entry] = [:]
        /// Plans launched once without a template, as their keys' hashes (a key is a few hundred
        /// bytes; 100 of them held 66 KB): the second launch builds one. Two plans of one hash
        /// would only build the second one's template at its first launch.
        var launchedOnce: Set<Int> = []
        var uses: UInt64 = 0
    }

    /// Templates kept at most (each holds a small mount namespace and one descriptor).
    static let capacity = 64

    private static let cache = Mutex(Cache())

    /// The template descriptor for `plan`, built with `config` (whose `template_fd` is -1) when
    /// there is none yet or what it shows changed; -1 when the plan takes none (a host that is
    /// not root), it cannot be built, or this is the plan's first launch in this process (a
    /// one-shot command launches once: building a template to copy it once costs more).
    static func descriptor(for plan: SandboxPlan, config: UnsafePointer<wh_sandbox_config>) -> Int32 {
        guard plan.runAs != nil, plan.reusesRoot else { return -1 }
        let key = Self.key(plan)
        let identities = Self.identities(plan)
        return cache.withLock { cache -> Int32 in
            cache.uses += 1
            if let entry = cache.entries[key] {
                if entry.identities == identities {
                    cache.entries[key]?.lastUse = cache.uses
                    return entry.descriptor
                }
                SystemCall.close(entry.descriptor)
                cache.entries[key] = nil
            } else if cache.launchedOnce.insert(key.hashValue).inserted {
                return -1
            }
            var descriptor: Int32 = -1
            var error: Int32 = 0
            var stage: Int32 = 0
            guard wh_sandbox_make_template(config, &descriptor, &error, &stage) == 0 else { return -1 }
            if cache.entries.count >= capacity, let oldest = cache.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                SystemCall.close(oldest.value.descriptor)
                cache.entries[oldest.key] = nil
            }
            cache.entries[key] = Entry(descriptor: descriptor, identities: identities, lastUse: cache.uses)
            return descriptor
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
