import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What identifies one build of an extension bundle on disk: the executable's inode, size and
/// modification time, and the Info.plist's. A rebuilt or replaced bundle has another fingerprint.
public struct BundleFingerprint: Sendable, Hashable {
    /// The two files a fingerprint reads, as paths (worked out once per bundle, not per call).
    public struct Files: Sendable {
        public var executable: String
        public var infoPlist: String

        public init(executable: URL, bundle: URL) {
            self.executable = executable.path
            infoPlist = bundle.appendingPathComponent("Info.plist").path
        }
    }

    /// One file's `lstat`: inode, size, modification time (all -1 when it cannot be read).
    private struct Stamp: Sendable, Hashable {
        var inode = -1
        var size = -1
        var seconds = -1
        var nanoseconds = -1

        init(_ path: String) {
            var info = Glibc.stat.init()
            guard lstat(path, &info) == 0 else { return }
            inode = Int(info.st_ino)
            size = Int(info.st_size)
            seconds = Int(info.st_mtim.tv_sec)
            nanoseconds = Int(info.st_mtim.tv_nsec)
        }
    }

    private var executable: Stamp
    private var infoPlist: Stamp

    public init(executable: URL, bundle: URL) {
        self.init(Files(executable: executable, bundle: bundle))
    }

    /// Two `lstat`s, nothing else.
    public init(_ files: Files) {
        executable = Stamp(files.executable)
        infoPlist = Stamp(files.infoPlist)
    }
}
