import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Keeps what each running extension holds in its App Group containers within its quota: a timer
/// on the host loop starts a walk of every watched extension's containers twice a second (and
/// one as soon as an extension is watched), on a thread of its own (a walk reads the disk, which
/// the loop must never wait for), and the first that holds more than its quota is reported, for
/// the host to stop it. Nothing is watched, nothing runs: no thread waits between walks. `RLIMIT_FSIZE` (the quota too) keeps any single file from outgrowing
/// it between two walks.
///
/// A container on its own file system (``ContainerVolume``, a root host) is bounded by the
/// kernel; its count is one `statvfs`. Elsewhere a walk counts the blocks every file takes (a
/// sparse file counts what it really uses, any file at least ``leastBytesPerFile``), follows no
/// link and no other file system, and adds the files the extension's processes hold open with
/// no name left. A directory it cannot enter, or a tree deeper than ``deepestDirectory``,
/// counts as full. Between two walks nothing bounds a non-root host's containers but
/// `RLIMIT_FSIZE`.
final class ContainerQuotaWatch: Sendable {
    static let shared = ContainerQuotaWatch()

    /// How often the containers are walked.
    static let interval: Duration = .milliseconds(500)

    private struct Entry {
        var containers: [String]
        var quotaBytes: Int
        /// The extension's processes now, whose open files count too.
        var processes: @Sendable () -> [pid_t]
        /// The devices the containers lie on, and whether they are images of their own.
        var devices: Set<dev_t>
        var onImages: Bool
        var exceeded: @Sendable (_ usedBytes: Int) -> Void
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var nextToken: UInt64 = 1
        /// A walk is under way.
        var walking = false
        /// Walk again as soon as the one under way ends (an extension was watched meanwhile).
        var walkAgain = false
        var timer: HostLoop.Timer?
    }

    private let state = Mutex(State())

    /// Watches `containers` until ``stopWatching(_:)``; `exceeded` runs once (on the watch's
    /// thread) when they hold more than `quotaBytes` together, and the watch ends then.
    /// - Returns: the token for ``stopWatching(_:)``.
    /// `processes` lists the extension's processes: files they keep open with no name left in
    /// a container count too.
    func watch(_ containers: [String], quotaBytes: Int, processes: @escaping @Sendable () -> [pid_t] = { [] },
               exceeded: @escaping @Sendable (Int) -> Void) -> UInt64 {
        var devices = Set<dev_t>()
        var onImages = true
        for container in containers {
            let fd = open(container, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { continue }
            var status = stat()
            if fstat(fd, &status) == 0 { devices.insert(status.st_dev) }
            if !ContainerVolume.isOnImage(container, fd: fd) { onImages = false }
            SystemCall.close(fd)
        }
        let entry = Entry(containers: containers, quotaBytes: quotaBytes, processes: processes, devices: devices,
                          onImages: onImages, exceeded: exceeded)
        let token = state.withLock { state -> UInt64 in
            let token = state.nextToken
            state.nextToken += 1
            state.entries[token] = entry
            return token
        }
        walkSoon()
        return token
    }

    func stopWatching(_ token: UInt64) {
        _ = state.withLock { $0.entries.removeValue(forKey: token) }
    }

    /// Starts a walk now, or right after the one under way.
    private func walkSoon() {
        let start = state.withLock { state -> Bool in
            guard !state.walking else {
                state.walkAgain = true
                return false
            }
            if let timer = state.timer { (try? HostLoop.shared())?.cancel(timer) }
            state.timer = nil
            state.walking = true
            return true
        }
        if start { startWalk() }
    }

    private func startWalk() {
        if DetachedThread.start(name: "wh-quota", { [self] in walk() }) != 0 {
            // No thread to be had now (the host at its limit): the next timer tries again.
            walkEnded()
        }
    }

    /// One walk of every watched extension's containers.
    private func walk() {
        let entries = state.withLock { $0.entries }
        for (token, entry) in entries {
            var used = entry.containers.reduce(0) { $0 + Self.bytesUsed(under: $1) }
            // On images the file systems count these already.
            if !entry.onImages { used += Self.unlinkedBytes(held: entry.processes(), on: entry.devices) }
            guard used > entry.quotaBytes else { continue }
            let stillWatched = state.withLock { $0.entries.removeValue(forKey: token) != nil }
            if stillWatched { entry.exceeded(used) }
        }
        walkEnded()
    }

    /// After a walk: the next one at once if asked for, else on the loop's timer while anything
    /// is watched.
    private func walkEnded() {
        let loop = try? HostLoop.shared()
        let again = state.withLock { state -> Bool in
            state.walking = false
            if state.walkAgain {
                state.walkAgain = false
                state.walking = true
                return true
            }
            if !state.entries.isEmpty, let loop {
                state.timer = loop.schedule(after: Self.interval) { [self] in walkSoon() }
            }
            return false
        }
        if again { startWalk() }
    }

    /// The bytes the files under `directory` take on disk, found without following any link.
    /// A container on its own file system (``ContainerVolume``) is that file system's count,
    /// which holds everything, open files without a name too.
    static func bytesUsed(under directory: String) -> Int {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return 0 }
        if ContainerVolume.isOnImage(directory, fd: fd) {
            defer { SystemCall.close(fd) }
            var status = statvfs()
            guard fstatvfs(fd, &status) == 0 else { return 0 }
            return Int(status.f_blocks - status.f_bfree) * Int(status.f_frsize)
        }
        var top = stat()
        guard fstat(fd, &top) == 0 else {
            SystemCall.close(fd)
            return 0
        }
        return bytesUsed(directoryDescriptor: fd, device: top.st_dev, depth: 0)
    }

    /// A walk goes this deep at most: a container nested deeper counts as over its quota
    /// (paths past about 2,000 directories are past PATH_MAX; no app's container needs 256).
    static let deepestDirectory = 256

    /// Each file or directory costs the quota at least this much, as a share of its inodes on a
    /// container image (``ContainerVolume/bytesPerInode``): empty files are not free.
    static var leastBytesPerFile: Int { ContainerVolume.bytesPerInode }

    /// Walks the open directory `fd` (and closes it) without recursion, one open directory per
    /// level. A directory the walk cannot enter (mode 000 on a host that is not root) or a tree
    /// deeper than ``deepestDirectory`` makes the container count as full: what it holds there
    /// cannot be known, so it is not given the benefit of the doubt.
    private static func bytesUsed(directoryDescriptor fd: Int32, device: dev_t, depth: Int) -> Int {
        guard let top = fdopendir(fd) else {
            SystemCall.close(fd)
            return Int.max / 2
        }
        var stack: [OpaquePointer] = [top]
        defer { stack.forEach { closedir($0) } }
        var total = 0
        while let stream = stack.last {
            guard let entry = readdir(stream) else {
                closedir(stream)
                stack.removeLast()
                continue
            }
            let directory = dirfd(stream)
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." { continue }
            var status = stat()
            guard fstatat(directory, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            total += max(Int(status.st_blocks) * 512, leastBytesPerFile)
            guard status.st_mode & S_IFMT == S_IFDIR, status.st_dev == device else { continue }
            guard stack.count <= deepestDirectory else { return Int.max / 2 }
            let child = openat(directory, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard child >= 0 else {
                // Gone, or replaced by a link, since fstatat: nothing there to count.
                if errno == ENOENT || errno == ELOOP || errno == ENOTDIR { continue }
                return Int.max / 2
            }
            guard let opened = fdopendir(child) else {
                SystemCall.close(child)
                return Int.max / 2
            }
            stack.append(opened)
        }
        return total
    }

    /// The blocks of files on `devices` that the processes `pids` hold open (or mapped) with no
    /// name left: a walk of the containers cannot see them, their space is still taken.
    static func unlinkedBytes(held pids: [pid_t], on devices: Set<dev_t>) -> Int {
        var seen = Set<UInt64>()
        var total = 0
        func count(_ path: String) {
            var status = stat()
            guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_nlink == 0,
                  devices.contains(status.st_dev), seen.insert(UInt64(status.st_ino)).inserted else { return }
            total += Int(status.st_blocks) * 512
        }
        for pid in pids {
            for kind in ["fd", "map_files"] {
                let directory = "/proc/\(pid)/\(kind)"
                guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
                for entry in entries { count(directory + "/" + entry) }
            }
        }
        return total
    }
}
