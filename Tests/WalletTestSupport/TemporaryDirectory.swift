import Foundation
import Synchronization

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

    /// Removes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
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
        for url in made { try? FileManager.default.removeItem(at: url) }
    }
}
