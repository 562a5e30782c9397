import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Decoded state files (`passes.json`, `device.json`, `keychain.json`), kept while the file
/// on disk is the same one, so that a host service does not read and decode the file again
/// for every request (a warm `status` asks for the pass library and the watch each time, and
/// 1,000 keychain items take milliseconds to decode).
///
/// Every write replaces the file by rename (``StateDirectory/update(_:in:empty:_:)``), which
/// gives it a new inode, so a file whose device, inode, size and change times are unchanged
/// still holds what was decoded. An entry is kept only when the file was the same one before
/// and after it was read. A missing or unreadable file is never cached: it is read (and its
/// error reported) every time.
final class StateFileCache: Sendable {
    static let shared = StateFileCache()

    /// What tells one version of a file from another.
    struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: [Int]
        var changed: [Int]

        /// The identity of the file at `path`, nil when it cannot be told (no file, no permission).
        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = [info.st_mtim.tv_sec, info.st_mtim.tv_nsec]
            changed = [info.st_ctim.tv_sec, info.st_ctim.tv_nsec]
        }
    }

    /// Paths remembered at most; past it the cache starts over (a host uses one state directory,
    /// the test suite many).
    static let capacity = 48

    private let entries = Mutex<[String: (identity: Identity, value: any Sendable)]>([:])

    /// The decoded file at `url`: the value decoded before when it is the same file, else what
    /// `read` returns (remembered when the file did not change while it was read).
    func value<Value: Sendable>(at url: URL, read: () throws -> Value) throws -> Value {
        let path = url.standardizedFileURL.path
        let before = Identity(path: path)
        if let before, let entry = entries.withLock({ $0[path] }), entry.identity == before,
           let value = entry.value as? Value {
            return value
        }
        let value = try read()
        if let before, Identity(path: path) == before {
            entries.withLock { entries in
                if entries.count >= Self.capacity { entries.removeAll() }
                entries[path] = (before, value)
            }
        }
        return value
    }
}
