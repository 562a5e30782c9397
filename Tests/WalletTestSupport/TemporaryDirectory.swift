import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A directory under the system's temporary directory, with a name no other test uses. Every
/// one made in a test process (and every ``uniqueURL(prefix:)`` handed out) is removed when the
/// process exits: a full run left about 4 GB of them behind (copies of the example apps), run
/// after run, until the disk was full.
///
/// Its name carries the test process's PID (`prefix-PID-UUID`): a run killed before its exit
/// handler left the App Group images it mounted there (thousands of them made every sandboxed
/// launch 160-560 ms), and the next test process unmounts those whose process is gone
/// (``releaseLeftoverImages()``) before its first directory.
public struct TemporaryDirectory: Sendable {
    /// The directory, which exists.
    public let url: URL

    /// Creates a fresh directory named `prefix-<UUID>`.
    /// - Throws: The file system's error when it cannot be created.
    /// - Parameter parent: where to make it (default: the system's temporary directory).
    public init(prefix: String = "wallet-host-tests", in parent: URL? = nil) throws {
        url = parent.map { $0.appendingPathComponent("\(prefix)-\(getpid())-\(UUID().uuidString)", isDirectory: true) }
            ?? Self.uniqueURL(prefix: prefix)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A directory made elsewhere (a state directory the code under test makes), to remove.
    public init(existing url: URL) {
        self.url = url
    }

    /// Removes the directory and everything in it, after unmounting what a root host mounted in
    /// it (App Group containers on their images, ``ContainerVolume``).
    public func remove() {
        Self.unmountEverything(under: url)
        try? FileManager.default.removeItem(at: url)
    }

    /// Unmounts every mount at or under `url` (deepest first), so that it can be removed.
    public static func unmountEverything(under url: URL) {
        guard geteuid() == 0, let table = mountInfo() else { return }
        let prefix = url.standardizedFileURL.path
        let points = table.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ")
            guard fields.count > 4 else { return nil }
            // Spaces, tabs and backslashes in a mount point are octal escapes.
            var point = String(fields[4])
            for (escape, character) in [("\\040", " "), ("\\011", "\t"), ("\\012", "\n"), ("\\134", "\\")] {
                point = point.replacingOccurrences(of: escape, with: character)
            }
            return point == prefix || point.hasPrefix(prefix + "/") ? point : nil
        }
        for point in points.sorted(by: { $0.count > $1.count }) { _ = umount2(point, Int32(MNT_DETACH)) }
    }

    /// A path named `prefix-<UUID>` in the temporary directory that nothing uses yet, not
    /// created: for code under test that makes its own directory (a state directory).
    public static func uniqueURL(prefix: String) -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(getpid())-\(UUID().uuidString)",
                                                                                isDirectory: true)
        removedAtExit(url)
        return url
    }

    // MARK: Removal at exit

    private static let madeInThisProcess = Mutex<[URL]>([])

    /// Registers the exit handler, once, after releasing what dead test processes left mounted.
    private static let exitHandler: Void = {
        releaseLeftoverImages()
        atexit { TemporaryDirectory.removeEveryOneMade() }
    }()

    /// Removes `url` (a file or a directory, if it exists then) when the test process exits.
    public static func removedAtExit(_ url: URL) {
        _ = exitHandler
        madeInThisProcess.withLock { $0.append(url) }
    }

    private static func removeEveryOneMade() {
        let made = madeInThisProcess.withLock { made in
            defer { made.removeAll() }
            return made
        }
        for url in made {
            unmountEverything(under: url)
            try? FileManager.default.removeItem(at: url)
        }
        unmountContainerImages()
    }

    /// Unmounts the App Group container images a root host's tests left mounted in the
    /// temporary directory (state directories the tests made themselves, and the throwaway
    /// ones of the commands they ran): each holds a loop device until it is unmounted.
    public static func unmountContainerImages() {
        guard geteuid() == 0, let table = mountInfo() else { return }
        let temporary = FileManager.default.temporaryDirectory.standardizedFileURL.path + "/wallet-host-"
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 4, let separator = fields.firstIndex(of: "-"), separator + 1 < fields.count,
                  fields[separator + 1] == "ext4" else { continue }
            let point = String(fields[4])
            if point.hasPrefix(temporary), point.contains("/AppGroups/") { _ = umount2(point, Int32(MNT_DETACH)) }
        }
    }

    // MARK: What killed runs left

    /// Unmounts the App Group images left mounted in `wallet-host-…-PID-…` directories of the
    /// temporary directory or `/var/tmp` (this support's, `conform`'s, `stress`'s) whose process is gone: a
    /// run killed by a timeout skips its exit handler. A directory of a running process, another
    /// test run's, is left alone. Returns how many were unmounted.
    @discardableResult
    public static func releaseLeftoverImages() -> Int {
        guard geteuid() == 0, let table = mountInfo() else { return 0 }
        // The temporary directory, and /var/tmp where a test's files must outlive a sandbox's private /tmp.
        let parents = Set([FileManager.default.temporaryDirectory.standardizedFileURL.path, "/var/tmp"]).map { $0 + "/" }
        let leftovers = imageMountPoints(table).filter { point in
            guard let parent = parents.first(where: { point.hasPrefix($0) }),
                  let owner = owner(ofDirectory: point.dropFirst(parent.count).split(separator: "/").first.map(String.init) ?? "")
            else { return false }
            return !(kill(owner, 0) == 0 || errno == EPERM)
        }
        // Each unmount waits for a grace period of the kernel's: several threads share them.
        let unmounted = Mutex(0)
        let threads = min(16, leftovers.count)
        let group = DispatchGroup()
        for thread in 0..<threads {
            group.enter()
            Thread.detachNewThread {
                for index in stride(from: thread, to: leftovers.count, by: threads) where umount2(leftovers[index], Int32(MNT_DETACH)) == 0 {
                    unmounted.withLock { $0 += 1 }
                }
                group.leave()
            }
        }
        group.wait()
        return unmounted.withLock { $0 }
    }

    /// This process's `/proc/self/mountinfo`, read to its end: /proc files report a size of zero,
    /// and `String(contentsOfFile:)` returned only the first few kilobytes (about 20 mounts), so
    /// that neither ``remove()`` nor the exit handler found the images to unmount.
    static func mountInfo() -> String? {
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/mountinfo") else { return nil }
        defer { try? handle.close() }
        return (try? handle.readToEnd()).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The App Group images (ext4 in an `AppGroups` directory) of a mountinfo text.
    static func imageMountPoints(_ table: String) -> [String] {
        table.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count > 4, let separator = fields.firstIndex(of: "-"), separator + 1 < fields.count,
                  fields[separator + 1] == "ext4", fields[4].contains("/AppGroups/") else { return nil }
            return String(fields[4])
        }
    }

    /// The PID in a directory's name `wallet-host-KIND-PID`, followed by nothing, a UUID or eight
    /// hexadecimal digits (as `MountTable.owner` reads it in the runtime); nil for any other name.
    public static func owner(ofDirectory name: String) -> pid_t? {
        guard name.hasPrefix("wallet-host-") else { return nil }
        var fields = name.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        let hexadecimal = { (field: String, length: Int) in field.count == length && field.allSatisfy(\.isHexDigit) }
        if fields.count >= 5, zip(fields.suffix(5), [8, 4, 4, 4, 12]).allSatisfy({ hexadecimal($0, $1) }) {
            fields.removeLast(5)
        } else if fields.count >= 2, hexadecimal(fields[fields.count - 1], 8), fields[fields.count - 2].allSatisfy(\.isNumber) {
            fields.removeLast()
        }
        guard fields.count > 3, let last = fields.last, !last.isEmpty, last.allSatisfy({ $0.isASCII && $0.isNumber }),
              let pid = pid_t(last), pid > 0 else { return nil }
        return pid
    }
}
