import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What identifies one build of an extension bundle on disk: the executable's inode, size and
/// modification time, and the Info.plist's. A rebuilt or replaced bundle has another fingerprint.
public struct BundleFingerprint: Sendable, Hashable {
    private var parts: [Int]

    public init(executable: URL, bundle: URL) {
        parts = Self.stat(executable.path) + Self.stat(bundle.appendingPathComponent("Info.plist").path)
    }

    private static func stat(_ path: String) -> [Int] {
        var info = Glibc.stat.init()
        guard lstat(path, &info) == 0 else { return [-1, -1, -1, -1] }
        return [Int(info.st_ino), Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
    }
}
