import Foundation
#if canImport(Glibc)
import Glibc
import WalletHostRuntime
#endif

/// The simulated device's state directory (DESIGN §10): pass library, device settings and
/// App Group containers. Every write is atomic (temp file, fsync, rename) and made under an
/// exclusive `flock`, so several host processes can share one directory without losing a write.
///
/// It holds secrets (the keychain, issuers' tokens): the directory is mode 0700 and every state
/// file 0600, and a directory left looser by an older host is tightened on the next write.
///
/// A state file that is missing is empty; one that exists but cannot be read or decoded is a
/// ``StateError`` naming it, and nothing is ever written over it.
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
    /// The keychain's generic passwords, of every access group.
    public var keychainURL: URL { url.appendingPathComponent("keychain.json") }
    public var logsURL: URL { url.appendingPathComponent("logs") }
    public var appGroupsURL: URL { url.appendingPathComponent("AppGroups") }
    private var lockURL: URL { url.appendingPathComponent(".lock") }

    /// What a state file holds, for messages: "the pass library", "the device settings".
    func role(of file: URL) -> String {
        switch file.standardizedFileURL.path {
        case passesURL.standardizedFileURL.path: return "the pass library"
        case deviceURL.standardizedFileURL.path: return "the device settings"
        case keychainURL.standardizedFileURL.path: return "the keychain"
        case appGroupOwnersURL.standardizedFileURL.path: return "the App Group owners"
        default: return "the state file"
        }
    }

    /// The container directory of an App Group, created on demand: always a direct child of
    /// ``appGroupsURL``. The group belongs to the first team that uses it on this device
    /// (``claimAppGroups(_:team:)``); a bundle of another team gets no container.
    /// - Parameters:
    ///   - groupIdentifier: The App Group identifier.
    ///   - team: The team of the bundle that uses it (``ExtensionBundle/team``, ``AppBundle/team``).
    /// - Throws: ``StateError`` naming the identifier when it cannot name a directory
    ///   (``AppGroupIdentifier/problem(_:)``), naming the group and both teams when another team
    ///   owns it, or naming the directory when it cannot be created.
    public func appGroupContainer(_ groupIdentifier: String, team: String) throws -> URL {
        if let problem = AppGroupIdentifier.problem(groupIdentifier) {
            throw StateError("the App Group identifier \"\(groupIdentifier)\" \(problem), so it cannot name a container in \(appGroupsURL.path)")
        }
        let container = appGroupsURL.appendingPathComponent(groupIdentifier, isDirectory: true)
        // The rule above keeps the identifier one path component; this keeps that promise checked.
        guard container.standardizedFileURL.deletingLastPathComponent().path == appGroupsURL.standardizedFileURL.path else {
            throw StateError("the App Group identifier \"\(groupIdentifier)\" would put its container outside \(appGroupsURL.path)")
        }
        try claimAppGroups([groupIdentifier], team: team)
        do {
            try FileManager.default.createDirectory(at: appGroupsURL, withIntermediateDirectories: true)
        } catch {
            throw StateError("cannot create the App Group container \(container.path): \(Self.reason(error))")
        }
        do {
            // Made the way every path in a container is made: no link followed, and given to the
            // sandbox's user when new (extensions and containing apps write there as that user).
            try ContainerDirectory.ensure(container.path)
        } catch {
            throw StateError("cannot create the App Group container \(container.path): \(error)")
        }
        return container
    }

    /// Containers for each of `groups`, as the `appGroups` map extensions receive. Either the
    /// team owns (or now claims) every group, or it gets none of them.
    /// - Parameters:
    ///   - groups: The bundle's App Groups.
    ///   - team: The bundle's team.
    /// - Throws: ``StateError`` as ``appGroupContainer(_:team:)`` does.
    public func appGroupContainers(_ groups: [String], team: String) throws -> [String: String] {
        // An identifier that cannot name a container throws here, before any group is claimed.
        for group in groups where AppGroupIdentifier.problem(group) != nil { _ = try appGroupContainer(group, team: team) }
        try claimAppGroups(groups, team: team)
        var containers: [String: String] = [:]
        for group in groups { containers[group] = try appGroupContainer(group, team: team).path }
        return containers
    }

    // MARK: Reading and writing

    /// Reads a JSON file, or returns `empty` when there is no file at that path at all.
    /// - Throws: ``StateError`` naming the file when something is there but cannot be read
    ///   (a directory, no permission, a dangling symbolic link) or decoded.
    public func read<Value: Decodable>(_ type: Value.Type, from file: URL, empty: Value) throws -> Value {
        let data: Data
        switch StateFileReader.contents(of: file) {
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
    /// - Throws: ``StateError`` naming the file on any failure; the old contents stay intact.
    public func update<Value: Codable>(_ type: Value.Type, in file: URL, empty: Value,
                                       _ change: (inout Value) throws -> Void) throws {
        try prepareDirectory()
        try withExclusiveLock {
            removeStaleTemporaryFiles()
            var value = try read(type, from: file, empty: empty)
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
            try writeAtomically(data, to: file)
        }
    }

    private func withExclusiveLock<T>(_ body: () throws -> T) throws -> T {
        let fd = open(lockURL.path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, Self.fileMode)
        guard fd >= 0 else {
            throw StateError("cannot lock the state directory \(url.path): \(lockURL.lastPathComponent): \(Self.errnoReason())")
        }
        defer { close(fd) }
        Self.tighten(fd, to: Self.fileMode)
        guard SystemCall.retryingInterrupts({ flock(fd, LOCK_EX) }) == 0 else {
            throw StateError("cannot lock the state directory \(url.path): \(lockURL.lastPathComponent): \(Self.errnoReason())")
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    // MARK: Temporary files

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
    private func removeStaleTemporaryFiles() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { return }
        for name in names where Self.isTemporaryFileName(name) {
            unlink(url.appendingPathComponent(name).path)
        }
    }

    /// Writes `data` to a temporary sibling, fsyncs it, renames it over `file`, fsyncs the directory.
    private func writeAtomically(_ data: Data, to file: URL) throws {
        let directory = file.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(file.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        let failure: (String) -> StateError = { StateError("cannot write \(role(of: file)) \(file.path): \($0)") }
        // A new file, renamed over the old: whatever mode the old one had, the new one is 0600.
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, Self.fileMode)
        guard fd >= 0 else { throw failure("cannot create \(temporary.lastPathComponent): \(Self.errnoReason())") }
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
        close(fd)
        if let problem {
            unlink(temporary.path)
            throw failure(problem)
        }
        guard rename(temporary.path, file.path) == 0 else {
            let reason = Self.errnoReason()
            unlink(temporary.path)
            throw failure(reason)
        }
        let directoryDescriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    // MARK: Messages

    static func errnoReason(_ code: Int32 = errno) -> String {
        String(cString: strerror(code)).lowercased()
    }

    /// A Foundation error as a clause, without the `NSError` dump.
    static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return errnoReason(Int32(underlying.code))
        }
        if nsError.domain == NSPOSIXErrorDomain { return errnoReason(Int32(nsError.code)) }
        switch CocoaError.Code(rawValue: nsError.code) {
        case .fileWriteFileExists: return "a file is in the way"
        case .fileWriteNoPermission: return "permission denied"
        case .fileWriteOutOfSpace: return "no space left on device"
        case .fileWriteVolumeReadOnly: return "read-only file system"
        default: return nsError.localizedDescription
        }
    }

    /// A decoding error as a clause: what is wrong, and where.
    static func decodingProblem(_ error: any Error) -> String {
        guard let decodingError = error as? DecodingError else { return "\(error)" }
        func at(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "" : " at " + path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch decodingError {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "it is not valid JSON"
        case .dataCorrupted(let context):
            return "it holds an unreadable value\(at(context.codingPath))"
        case .keyNotFound(let key, let context):
            return "it has no \"\(key.stringValue)\"\(at(context.codingPath))"
        case .typeMismatch(let type, let context):
            return "it holds the wrong kind of value\(at(context.codingPath)) (expected \(type))"
        case .valueNotFound(let type, let context):
            return "it holds null\(at(context.codingPath)) (expected \(type))"
        @unknown default:
            return "it cannot be decoded"
        }
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

    static func contents(of file: URL) -> Outcome {
        let fd = SystemCall.retryingInterrupts { open(file.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else {
            let code = errno
            guard code == ENOENT else { return .unreadable(reason(code)) }
            // ENOENT also comes from a symbolic link to nothing: something is there.
            var status = stat()
            if lstat(file.path, &status) == 0 { return .unreadable("it is a symbolic link to a file that does not exist") }
            return .missing
        }
        defer { close(fd) }
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
        case ELOOP: return "it is a symbolic link that loops"
        case ENOTDIR: return "a part of its path is not a directory"
        case EISDIR: return "it is a directory"
        default: return StateDirectory.errnoReason(code)
        }
    }
}

/// A state file that cannot be read or written: one sentence naming the file.
public struct StateError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
