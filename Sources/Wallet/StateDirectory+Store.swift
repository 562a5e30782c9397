import Foundation
import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

// The state directory as an atomic JSON store: reads that tell "missing" from "unreadable",
// and updates made under an exclusive lock, written to a temporary file, synced and renamed.

extension StateDirectory {
    /// Reads a JSON file, or returns `empty` when there is no file at that path at all.
    /// - Throws: ``StateError`` naming the file when something is there but cannot be read
    ///   (a directory, no permission, a dangling symbolic link) or decoded.
    public func read<Value: Decodable>(_ type: Value.Type, from file: URL, empty: Value) throws -> Value {
        try withDirectory(creating: false) { root in
            guard let root, let (directory, name) = try openParent(of: file, in: root, creating: false) else { return empty }
            defer { SystemCall.close(directory) }
            return try read(type, named: name, in: directory, file: file, empty: empty)
        }
    }

    /// Reads the JSON file `name` of the open `directory` (`file` in messages), or `empty`.
    private func read<Value: Decodable>(_ type: Value.Type, named name: String, in directory: Int32, file: URL,
                                        empty: Value) throws -> Value {
        let data: Data
        switch StateFileReader.contents(named: name, in: directory) {
        case .missing:
            return empty
        case .unreadable(let reason):
            throw StateError("cannot read \(role(of: file)) \(file.path): \(reason)")
        case .contents(let contents):
            data = contents
        }
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(type, from: data)
        } catch {
            throw StateError("cannot read \(role(of: file)) \(file.path): \(Self.decodingProblem(error))")
        }
    }

    /// Reads, changes and writes a JSON file under the directory's lock, atomically. Temporary
    /// files that a killed writer left behind are removed first.
    /// - Parameters:
    ///   - lock: A lock file of the file's own (in the state directory or below it) instead of
    ///     the directory's `.lock`, for a file no other write touches (one team's keychain): its
    ///     writes then wait only for each other.
    /// - Throws: ``StateError`` naming the file on any failure; the old contents stay intact.
    public func update<Value: Codable>(_ type: Value.Type, in file: URL, empty: Value, lock: URL? = nil,
                                       _ change: (inout Value) throws -> Void) throws {
        try update(type, in: file, empty: empty, locking: lock.map { .file($0) } ?? .directory, change)
    }

    /// Which lock a write takes.
    enum WriteLock {
        /// The directory's `.lock`.
        case directory
        /// A lock file of the file's own.
        case file(URL)
        /// A lock of the file's own that the caller holds already (``withLock(_:_:)``).
        case held
    }

    /// ``update(_:in:empty:lock:_:)`` with the lock to take, or none when the caller holds the file's own.
    func update<Value: Codable>(_ type: Value.Type, in file: URL, empty: Value, locking: WriteLock,
                                _ change: (inout Value) throws -> Void) throws {
        try withDirectory(creating: true) { root in
            let root = root!
            guard let (directory, name) = try openParent(of: file, in: root, creating: true) else {
                throw StateError("cannot write \(role(of: file)) \(file.path): its directory cannot be made")
            }
            defer { SystemCall.close(directory) }
            let locked: (() throws -> Void) throws -> Void = { body in
                switch locking {
                case .directory: try withExclusiveLock(root, lockURL.lastPathComponent, body)
                case .file(let lock): try withExclusiveLock(root, relativePath(lock), body)
                case .held: try body()
                }
            }
            try locked {
                // Under the directory's lock every write of the directory waits: any temporary
                // file is stale. Under a file's own lock, only that file's are.
                removeStaleTemporaryFiles(in: directory, of: { if case .directory = locking { return nil } else { return name } }())
                var value = try read(type, named: name, in: directory, file: file, empty: empty)
                try change(&value)
                let encoder = JSONEncoder()
                encoder.dateEncodingStrategy = .iso8601
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                let data: Data
                do {
                    data = try encoder.encode(value)
                } catch {
                    throw StateError("cannot write \(role(of: file)) \(file.path): \(error)")
                }
                try writeAtomically(data, named: name, in: directory, file: file)
            }
        }
    }

    /// Runs `body` holding the lock file `lock` (below the state directory, made when missing,
    /// with the directories on its way), for writes made with ``WriteLock/held``.
    /// - Throws: ``StateError`` naming the lock or the state directory.
    func withLock<T>(_ lock: URL, _ body: () throws -> T) throws -> T {
        try withDirectory(creating: true) { root in
            let root = root!
            guard let (directory, _) = try openParent(of: lock, in: root, creating: true) else {
                throw StateError("cannot lock \(lock.path): its directory cannot be made")
            }
            SystemCall.close(directory)
            return try withExclusiveLock(root, relativePath(lock), body)
        }
    }

    /// `file`'s path below the state directory (`keychain/.TEAM.lock`).
    func relativePath(_ file: URL) -> String {
        String(file.standardizedFileURL.path.dropFirst(url.standardizedFileURL.path.count + 1))
    }

    /// Runs `body` holding the lock file `lock` (a path below `root`, opened beneath it without
    /// following a link, made when missing), or throws ``StateError`` naming it.
    func withExclusiveLock<T>(_ root: Int32, _ lock: String, _ body: () throws -> T) throws -> T {
        let fd = BeneathLookup.open(lock, beneath: root, flags: O_RDWR | O_CREAT | O_CLOEXEC, mode: Self.fileMode)
        guard fd >= 0 else {
            throw StateError("cannot lock the state directory \(url.path): \(lock): \(Self.beneathReason(errno))")
        }
        defer { SystemCall.close(fd) }
        Self.tighten(fd, to: Self.fileMode)
        guard SystemCall.retryingInterrupts({ flock(fd, LOCK_EX) }) == 0 else {
            throw StateError("cannot lock the state directory \(url.path): \(lock): \(Self.errnoReason())")
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    // Temporary files

    /// Whether `name` is one of ``writeAtomically(_:to:)``'s temporary files: `.<file>.<pid>.<random>.tmp`.
    static func isTemporaryFileName(_ name: String) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return false }
        let parts = name.dropFirst().dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return false }
        return parts.suffix(2).allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }

    /// Removes every temporary file of an atomic write. Call only under the exclusive lock:
    /// every write holds it from creating its temporary file to renaming it, so whatever is
    /// left here belongs to a writer that was killed (SIGKILL, power loss) mid-write.
    /// - Parameter file: only that file's temporary files (when the lock held is the file's own), else all.
    private func removeStaleTemporaryFiles(in directory: Int32, of file: String?) {
        let listed = dup(directory)
        guard listed >= 0, let stream = fdopendir(listed) else { return }
        defer { closedir(stream) }
        var stale: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            if Self.isTemporaryFileName(name), file.map({ name.hasPrefix(".\($0).") }) ?? true { stale.append(name) }
        }
        for name in stale { unlinkat(directory, name, 0) }
    }

    /// Writes `data` to a temporary sibling of `name` in the open `directory`, fsyncs it, renames
    /// it over `name` and fsyncs the directory; `file` names it in messages.
    private func writeAtomically(_ data: Data, named name: String, in directory: Int32, file: URL) throws {
        let temporary = ".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let failure: (String) -> StateError = { StateError("cannot write \(role(of: file)) \(file.path): \($0)") }
        // A new file, renamed over the old: whatever mode the old one had, the new one is 0600.
        let fd = BeneathLookup.open(temporary, beneath: directory, flags: O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: Self.fileMode)
        guard fd >= 0 else { throw failure("cannot create \(temporary): \(Self.errnoReason())") }
        var problem: String?
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = SystemCall.retryingInterrupts { write(fd, bytes.baseAddress! + offset, bytes.count - offset) }
                if written < 0 {
                    problem = Self.errnoReason()
                    return
                }
                offset += written
            }
        }
        if problem == nil, fsync(fd) != 0 { problem = Self.errnoReason() }
        SystemCall.close(fd)
        if let problem {
            unlinkat(directory, temporary, 0)
            throw failure(problem)
        }
        // renameat replaces `name` itself, a link there included: nothing is followed.
        guard renameat(directory, temporary, directory, name) == 0 else {
            let reason = Self.errnoReason()
            unlinkat(directory, temporary, 0)
            throw failure(reason)
        }
        fsync(directory)
    }
}

/// Reads a state file with system calls, telling "nothing there" apart from "something there
/// that cannot be read": only the first may be taken as an empty file.
enum StateFileReader {
    enum Outcome {
        case missing
        case unreadable(String)
        case contents(Data)
    }

    /// The file `name` of the open `directory`, opened without following a link (a link there
    /// is unreadable, not missing: something is there).
    static func contents(named name: String, in directory: Int32) -> Outcome {
        let fd = SystemCall.retryingInterrupts {
            BeneathLookup.open(name, beneath: directory, flags: O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        }
        guard fd >= 0 else {
            let code = errno
            guard code == ENOENT else { return .unreadable(reason(code)) }
            return .missing
        }
        defer { SystemCall.close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { return .unreadable(reason(errno)) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .unreadable("it is a directory")
        default: return .unreadable("it is not a regular file")
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes in SystemCall.retryingInterrupts { read(fd, bytes.baseAddress!, bytes.count) } }
            if count < 0 {
                return .unreadable(reason(errno))
            }
            if count == 0 { return .contents(data) }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    private static func reason(_ code: Int32) -> String {
        switch code {
        case EACCES, EPERM: return "permission denied"
        case ELOOP, EXDEV: return "it is a symbolic link: refused, not followed (the host follows no link in the state directory)"
        case ENOTDIR: return "a part of its path is not a directory"
        case EISDIR: return "it is a directory"
        default: return StateDirectory.errnoReason(code)
        }
    }
}
