import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A directory under the system's temporary directory, with a name no other test uses. Every
/// one made in a test process (and every ``uniqueURL(prefix:)`` handed out) is removed when the
/// process exits: a full run left about 4 GB of them behind (copies of the example apps), run
/// after run, until the disk was full.
public struct TemporaryDirectory: Sendable {
    /// The directory, which exists.
    public let url: URL

    /// Creates a fresh directory named `prefix-<UUID>`.
    /// - Throws: The file system's error when it cannot be created.
    /// - Parameter parent: where to make it (default: the system's temporary directory).
    public init(prefix: String = "wallet-host-tests", in parent: URL? = nil) throws {
        url = parent.map { $0.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true) }
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
        guard geteuid() == 0, let table = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return }
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
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        removedAtExit(url)
        return url
    }

    // MARK: Removal at exit

    private static let madeInThisProcess = Mutex<[URL]>([])

    /// Registers the exit handler, once.
    private static let exitHandler: Void = {
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
        guard geteuid() == 0, let table = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return }
        let temporary = FileManager.default.temporaryDirectory.standardizedFileURL.path + "/wallet-host-"
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 4, let separator = fields.firstIndex(of: "-"), separator + 1 < fields.count,
                  fields[separator + 1] == "ext4" else { continue }
            let point = String(fields[4])
            if point.hasPrefix(temporary), point.contains("/AppGroups/") { _ = umount2(point, Int32(MNT_DETACH)) }
        }
    }
}
