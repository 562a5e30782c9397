import FoundationEssentials
import WalletWire
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file operation on shared preferences failed.
struct SharedFileError: Error, CustomStringConvertible {
    var description: String

    init(_ operation: String, _ path: String, reason: String) {
        description = "\(operation) \(path): \(reason)"
    }

    init(_ operation: String, _ path: String, errorNumber: Int32) {
        self.init(operation, path, reason: String(cString: strerror(errorNumber)))
    }
}

/// A property-list dictionary in a file that several processes read and write at once: the
/// containing app, its two extensions, and the host.
///
/// - Reads take no lock: writers replace the file with `rename(2)`, so a reader always sees
///   one whole version.
/// - Writes are read-modify-write under an exclusive `flock(2)` on the sibling file
///   `<file>.lock`; the new version is written to a temporary file in the same directory,
///   `fsync`ed, renamed over the old one, and the directory is `fsync`ed. Concurrent writers
///   of different keys therefore never lose each other's keys, and a crash leaves either the
///   old or the new file, never a torn one.
struct SharedPropertyListFile: Sendable {
    /// The property list's path.
    let path: String

    /// The lock file every writer locks (the host uses the same convention).
    var lockPath: String { path + ".lock" }

    /// The whole dictionary as it is on disk now; empty when there is no file yet.
    func read() -> [String: PropertyListValue] {
        guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else { return [:] }
        do {
            return try PropertyListDecoder().decode([String: PropertyListValue].self, from: data)
        } catch {
            Diagnostics.log("\(path) is not a property-list dictionary (\(error)); reading it as empty")
            return [:]
        }
    }

    /// Applies `change` to the current dictionary and writes the result, under the lock.
    func update(_ change: (inout [String: PropertyListValue]) -> Void) throws(SharedFileError) {
        let directory = URL(filePath: path).deletingLastPathComponent().path(percentEncoded: false)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw SharedFileError("create directory", directory, reason: "\(error)")
        }
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw SharedFileError("open", lockPath, errorNumber: errno) }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw SharedFileError("flock", lockPath, errorNumber: errno) }
        }
        defer { flock(lock, LOCK_UN) }

        var dictionary = read()
        change(&dictionary)
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .xml
        let data: Data
        do {
            data = try encoder.encode(dictionary)
        } catch {
            throw SharedFileError("encode", path, reason: "\(error)")
        }
        try replaceAtomically(with: data, directory: directory)
    }

    private func replaceAtomically(with data: Data, directory: String) throws(SharedFileError) {
        let temporaryPath = "\(path).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let file = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard file >= 0 else { throw SharedFileError("create", temporaryPath, errorNumber: errno) }
        var failure: SharedFileError?
        let writeError: Int32? = data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(file, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let writeError {
            failure = SharedFileError("write", temporaryPath, errorNumber: writeError)
        } else if fsync(file) != 0 {
            failure = SharedFileError("fsync", temporaryPath, errorNumber: errno)
        }
        close(file)
        if failure == nil, rename(temporaryPath, path) != 0 {
            failure = SharedFileError("rename", temporaryPath, errorNumber: errno)
        }
        if let failure {
            unlink(temporaryPath)
            throw failure
        }
        // Make the rename itself durable.
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }
}
