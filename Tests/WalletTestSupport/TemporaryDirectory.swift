import Foundation

/// A directory under the system's temporary directory, with a name no other test uses.
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
        FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
    }
}
