import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The host's mount table, as far as the sandbox pays for it: every sandboxed launch that builds
/// its root copies the whole table into its new mount namespace, and the sandbox's probe does
/// too, so a table grown to thousands of mounts makes every such launch slow (160-560 ms with
/// 4,264 App Group images that killed test runs had left mounted).
public struct MountTable: Sendable, Equatable {
    /// One mount: where it is mounted and its file system's type.
    public struct Mount: Sendable, Equatable {
        public var point: String
        public var type: String

        public init(point: String, type: String) {
            self.point = point
            self.type = type
        }
    }

    /// Every mount, in the table's order.
    public var mounts: [Mount]

    /// Reads a `/proc/PID/mountinfo` text (the mount point is field 5, the type the first field
    /// after the " - " separator; spaces, tabs, newlines and backslashes in a point are octal escapes).
    public init(mountInfo: String) {
        mounts = mountInfo.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count > 4, let separator = fields.firstIndex(of: "-"), separator + 1 < fields.count else { return nil }
            return Mount(point: Self.unescaped(fields[4]), type: String(fields[separator + 1]))
        }
    }

    /// This process's mount table; nil when /proc cannot be read.
    public static func current() -> MountTable? {
        // Read to the end by hand: /proc files report a size of zero, and String(contentsOfFile:)
        // returned only the table's first few kilobytes (its first 20 or so mounts).
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/mountinfo") else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.readToEnd() else { return nil }
        return MountTable(mountInfo: String(decoding: data, as: UTF8.self))
    }

    /// The App Group containers on their images (``ContainerVolume``): ext4 mounted in an `AppGroups` directory.
    public var appGroupImages: [String] {
        mounts.filter { $0.type == "ext4" && $0.point.contains("/AppGroups/") }.map(\.point)
    }

    /// Where throwaway directories are made: the temporary directory, and `/var/tmp` (a test
    /// whose files must outlive a sandbox's private `/tmp` makes its own there).
    public static var throwawayParents: [String] {
        Array(Set([FileManager.default.temporaryDirectory.path, "/var/tmp"].map { URL(fileURLWithPath: $0).standardizedFileURL.path }))
    }

    /// The App Group images in throwaway directories of `temporaryDirectories` whose process is
    /// gone: a directory named `wallet-host-…-PID-…` (``owner(of:temporaryDirectory:)``), as the
    /// tests and the `conform`, `stress` and `demo` commands name theirs, whose PID no longer runs.
    public func leftoverImages(temporaryDirectories: [String] = MountTable.throwawayParents,
                               isRunning: (pid_t) -> Bool = MountTable.isRunning) -> [String] {
        appGroupImages.filter { point in
            guard let owner = temporaryDirectories.lazy.compactMap({ Self.owner(of: point, temporaryDirectory: $0) }).first
            else { return false }
            return !isRunning(owner)
        }
    }

    /// The process a throwaway directory at `point` belongs to, from the name of its top directory
    /// in `temporaryDirectory`: `wallet-host-KIND-PID` followed by nothing, `-` and a UUID, or `-`
    /// and eight hexadecimal digits. Nil for any other path (a user's state directory is never a
    /// leftover).
    public static func owner(of point: String, temporaryDirectory: String) -> pid_t? {
        let base = URL(fileURLWithPath: temporaryDirectory).standardizedFileURL.path + "/"
        guard point.hasPrefix(base) else { return nil }
        let top = point.dropFirst(base.count).split(separator: "/").first.map(String.init) ?? ""
        guard top.hasPrefix("wallet-host-") else { return nil }
        var fields = top.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        let hexadecimal = { (field: String, length: Int) in
            field.count == length && field.allSatisfy { $0.isHexDigit }
        }
        if fields.count >= 5, zip(fields.suffix(5), [8, 4, 4, 4, 12]).allSatisfy({ hexadecimal($0, $1) }) {
            fields.removeLast(5)
        } else if fields.count >= 2, hexadecimal(fields[fields.count - 1], 8),
                  fields[fields.count - 2].allSatisfy(\.isNumber) {
            // Eight digits are never a PID (at most 4,194,304): a tail, even when all digits.
            fields.removeLast()
        }
        guard fields.count > 3, let last = fields.last, !last.isEmpty, last.allSatisfy(\.isASCII), last.allSatisfy(\.isNumber),
              let pid = pid_t(last), pid > 0 else { return nil }
        return pid
    }

    /// Whether a process `pid` runs (a zombie counts: its parent has yet to see it end).
    public static func isRunning(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// Unmounts (lazily) the App Group images ``leftoverImages(temporaryDirectories:isRunning:)``
    /// names, a root host's only; each unmount waits for a grace period of RCU's, so they go
    /// out from several threads at once. Returns how many were unmounted.
    @discardableResult
    public static func releaseLeftoverImages() -> Int {
        guard geteuid() == 0, let table = current() else { return 0 }
        return unmount(table.leftoverImages())
    }

    /// Detaches every one of `points` from up to 16 threads (concurrent unmounts share the
    /// kernel's grace periods); returns how many went.
    public static func unmount(_ points: [String]) -> Int {
        guard !points.isEmpty else { return 0 }
        let threads = min(16, points.count)
        let unmounted = Mutex(0)
        let group = DispatchGroup()
        for thread in 0..<threads {
            group.enter()
            Thread.detachNewThread {
                var count = 0
                for index in stride(from: thread, to: points.count, by: threads) where umount2(points[index], Int32(MNT_DETACH)) == 0 {
                    count += 1
                }
                unmounted.withLock { $0 += count }
                group.leave()
            }
        }
        group.wait()
        return unmounted.withLock { $0 }
    }

    private static func unescaped(_ field: Substring) -> String {
        var point = String(field)
        guard point.contains("\\") else { return point }
        for (escape, character) in [("\\040", " "), ("\\011", "\t"), ("\\012", "\n"), ("\\134", "\\")] {
            point = point.replacingOccurrences(of: escape, with: character)
        }
        return point
    }
}

extension MountTable {
    /// What `wallet-host doctor` says of a mount table: its size, its App Group images and the
    /// leftovers among them, what copying it costs, and what to do when it is too large.
    public struct Assessment: Sendable {
        /// Mounts past which the table is large: a machine has a few dozen, a full test run
        /// peaks at about 450 (its App Group images); 736 made a fresh call's clone into new
        /// namespaces 2.4 ms and reading the table for control groups several more.
        public static let largeCount = 500

        public var count: Int
        public var images: Int
        public var leftovers: [String]
        /// What a clone into the sandbox's namespaces took, in ms; nil when not measured.
        public var copyMilliseconds: Double?

        public init(_ table: MountTable, leftovers: [String], copyMilliseconds: Double?) {
            count = table.mounts.count
            images = table.appGroupImages.count
            self.leftovers = leftovers
            self.copyMilliseconds = copyMilliseconds
        }

        /// Whether the table costs launches more than it should: large, or holding leftovers.
        public var isLarge: Bool { count >= Self.largeCount || !leftovers.isEmpty }

        /// The finding as a sentence.
        public var detail: String {
            let cost = copyMilliseconds.map { String(format: "; a clone into the sandbox's namespaces, the table copied, takes %.2f ms here", $0) } ?? ""
            return "\(count) mounts, \(images) of them App Group images (\(leftovers.count) left mounted by processes that are gone)"
                + "\(cost): every sandboxed launch that builds its root copies the whole table"
                + (isLarge ? ", so a large one slows every launch (4,264 leftover images made cold calls 160-560 ms)" : "")
        }

        /// What to do about it; nil when nothing needs doing.
        public var fix: String? {
            guard isLarge else { return nil }
            if !leftovers.isEmpty {
                let example = leftovers.first ?? ""
                return "unmount the \(leftovers.count) App Group images that processes gone since left in the temporary directory "
                    + "(umount -l each, e.g. umount -l '\(example)'); wallet-host's test runs release them when they start"
            }
            return "see what is mounted (findmnt --list) and unmount what nothing uses"
        }
    }
}
