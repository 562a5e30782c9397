import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The simulated device's state directory (DESIGN §10): pass library, device settings and
/// App Group containers. Every write is atomic (temp file, fsync, rename) and made under an
/// exclusive `flock`, so several host processes can share one directory without losing a write.
public struct StateDirectory: Sendable {
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    /// `$WALLET_HOST_STATE`, else `$XDG_STATE_HOME/wallet-host`, else `~/.local/state/wallet-host`.
    public static var defaultURL: URL {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["WALLET_HOST_STATE"], !explicit.isEmpty { return URL(fileURLWithPath: explicit) }
        if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("wallet-host")
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/state/wallet-host")
    }

    public var passesURL: URL { url.appendingPathComponent("passes.json") }
    public var deviceURL: URL { url.appendingPathComponent("device.json") }
    public var logsURL: URL { url.appendingPathComponent("logs") }
    private var lockURL: URL { url.appendingPathComponent(".lock") }

    /// The container directory of an App Group, created on demand.
    /// - Throws: when the directory cannot be created.
    public func appGroupContainer(_ groupIdentifier: String) throws -> URL {
        let safe = groupIdentifier.replacingOccurrences(of: "/", with: "_")
        let container = url.appendingPathComponent("AppGroups").appendingPathComponent(safe)
        try FileManager.default.createDirectory(at: container, withIntermediateDirectories: true)
        return container
    }

    /// Containers for each of `groups`, as the `appGroups` map extensions receive.
    public func appGroupContainers(_ groups: [String]) throws -> [String: String] {
        var containers: [String: String] = [:]
        for group in groups { containers[group] = try appGroupContainer(group).path }
        return containers
    }

    // MARK: Reading and writing

    /// Reads a JSON file, or returns `empty` when it does not exist yet.
    /// - Throws: ``StateError`` naming the file when it exists but cannot be decoded.
    public func read<Value: Decodable>(_ type: Value.Type, from file: URL, empty: Value) throws -> Value {
        guard let data = try? Data(contentsOf: file) else { return empty }
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(type, from: data)
        } catch {
            throw StateError("\(file.path): cannot be read: \(error)")
        }
    }

    /// Reads, changes and writes a JSON file under the directory's lock, atomically.
    /// - Throws: ``StateError`` naming the file on any failure; the old contents stay intact.
    public func update<Value: Codable>(_ type: Value.Type, in file: URL, empty: Value,
                                       _ change: (inout Value) throws -> Void) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try withExclusiveLock {
            var value = try read(type, from: file, empty: empty)
            try change(&value)
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try Self.writeAtomically(try encoder.encode(value), to: file)
        }
    }

    private func withExclusiveLock<T>(_ body: () throws -> T) throws -> T {
        let fd = open(lockURL.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw StateError("\(lockURL.path): cannot open lock: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw StateError("\(lockURL.path): cannot lock: \(String(cString: strerror(errno)))") }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    /// Writes `data` to a temporary sibling, fsyncs it, renames it over `file`, fsyncs the directory.
    static func writeAtomically(_ data: Data, to file: URL) throws {
        let directory = file.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(file.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw StateError("\(temporary.path): cannot create: \(String(cString: strerror(errno)))") }
        var failure: String?
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        if let failure {
            unlink(temporary.path)
            throw StateError("\(file.path): cannot write: \(failure)")
        }
        guard rename(temporary.path, file.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw StateError("\(file.path): cannot replace: \(reason)")
        }
        let directoryDescriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }
}

/// A state file that cannot be read or written, named in the message.
public struct StateError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
