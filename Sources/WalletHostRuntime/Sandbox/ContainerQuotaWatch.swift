import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Keeps what each running extension holds in its App Group containers within its quota: one
/// thread for the whole host walks every watched extension's containers twice a second (and
/// once as soon as it is watched) and reports the first that holds more than its quota, which
/// the host then stops. `RLIMIT_FSIZE` (the quota too) keeps any single file from outgrowing
/// it between two walks.
///
/// A walk counts the blocks every file takes (a sparse file counts what it really uses) and
/// follows no link and no other file system: it sees what the extension can fill.
final class ContainerQuotaWatch: Sendable {
    static let shared = ContainerQuotaWatch()

    /// How often the containers are walked.
    static let interval: DispatchTimeInterval = .milliseconds(500)

    private struct Entry {
        var containers: [String]
        var quotaBytes: Int
        var exceeded: @Sendable (_ usedBytes: Int) -> Void
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var nextToken: UInt64 = 1
        var running = false
    }

    private let state = Mutex(State())
    private let wakeUp = DispatchSemaphore(value: 0)

    /// Watches `containers` until ``stopWatching(_:)``; `exceeded` runs once (on the watch's
    /// thread) when they hold more than `quotaBytes` together, and the watch ends then.
    /// - Returns: the token for ``stopWatching(_:)``.
    func watch(_ containers: [String], quotaBytes: Int, exceeded: @escaping @Sendable (Int) -> Void) -> UInt64 {
        let (token, start) = state.withLock { state -> (UInt64, Bool) in
            let token = state.nextToken
            state.nextToken += 1
            state.entries[token] = Entry(containers: containers, quotaBytes: quotaBytes, exceeded: exceeded)
            defer { state.running = true }
            return (token, !state.running)
        }
        if start {
            let thread = Thread { [self] in run() }
            thread.name = "wallet-host-quota"
            thread.start()
        } else {
            wakeUp.signal()
        }
        return token
    }

    func stopWatching(_ token: UInt64) {
        _ = state.withLock { $0.entries.removeValue(forKey: token) }
    }

    private func run() {
        while true {
            let entries = state.withLock { $0.entries }
            for (token, entry) in entries {
                let used = entry.containers.reduce(0) { $0 + Self.bytesUsed(under: $1) }
                guard used > entry.quotaBytes else { continue }
                let stillWatched = state.withLock { $0.entries.removeValue(forKey: token) != nil }
                if stillWatched { entry.exceeded(used) }
            }
            _ = wakeUp.wait(timeout: .now() + Self.interval)
        }
    }

    /// The bytes the files under `directory` take on disk, found without following any link.
    static func bytesUsed(under directory: String) -> Int {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return 0 }
        var top = stat()
        guard fstat(fd, &top) == 0 else {
            close(fd)
            return 0
        }
        return bytesUsed(directoryDescriptor: fd, device: top.st_dev, depth: 0)
    }

    /// Walks the open directory `fd` (and closes it).
    private static func bytesUsed(directoryDescriptor fd: Int32, device: dev_t, depth: Int) -> Int {
        guard let stream = fdopendir(fd) else {
            close(fd)
            return 0
        }
        defer { closedir(stream) }
        var total = 0
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." { continue }
            var status = stat()
            guard fstatat(fd, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            total += Int(status.st_blocks) * 512
            // Deep trees are cut off rather than walked without end; the file size limit still holds there.
            guard status.st_mode & S_IFMT == S_IFDIR, status.st_dev == device, depth < 64 else { continue }
            let child = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if child >= 0 { total += bytesUsed(directoryDescriptor: child, device: device, depth: depth + 1) }
        }
        return total
    }
}
