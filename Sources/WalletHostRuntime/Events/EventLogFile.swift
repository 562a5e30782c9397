import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Appends events as JSON lines to `<directory>/events.jsonl`, and each extension's output to
/// `<directory>/<bundle id>.log` as `time [pid N stream] line`.
///
/// Several hosts may log into one state directory at once (a CLI call beside a demo, a daemon
/// beside a CLI): every file is opened with `O_APPEND` and every line goes out in one
/// `write(2)`, so lines never splice or overwrite each other. Nothing is written through a
/// symbolic link: the directory and the files are opened with `O_NOFOLLOW`, so a link planted
/// in `logs/` cannot make the host append to a file elsewhere. Extensions' output may hold
/// secrets: the directory is mode 0700 and every file 0600, tightened when found looser.
///
/// A daemon gathers its lines (``init(directory:gatheringFor:)``): events and extensions' output
/// are written a few milliseconds later, each file's many in one `write(2)`, by a thread of the
/// log's own, instead of one system call per line on the threads that serve calls (the I/O
/// reactor among them); that thread also encodes the events ``record(_:)`` queued. ``flush()``
/// writes what waits.
public final class EventLogFile: HostEventSink {
    public let eventsURL: URL
    public let directory: URL
    private let directoryDescriptor: Int32
    private let eventsDescriptor: Int32
    /// Bundle identifier -> its output log (nil when it could not be opened: output is then dropped).
    private let outputDescriptors = Mutex<[String: Int32?]>([:])
    private let encoder: JSONEncoder
    /// Lines waiting to be written, when they are gathered.
    private let gathered: EventGathering?

    /// Opens (creating as needed) `<directory>/events.jsonl` for appending.
    /// - Parameter gatheringFor: when given, lines wait up to this long to be written together
    ///   (the log then lives as long as the process: its writer thread holds it).
    /// - Throws: ``EventLogError`` naming the path when the directory or file cannot be
    ///   created or opened, or is a symbolic link.
    public init(directory: URL, gatheringFor delay: Duration? = nil) throws {
        self.directory = directory
        do {
            try FileManager.default.createDirectory(at: directory.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw EventLogError(path: directory.path, reason: "cannot be created (\(error.localizedDescription))")
        }
        if mkdir(directory.path, Self.directoryMode) != 0, errno != EEXIST {
            throw EventLogError(path: directory.path, reason: "cannot be created (\(String(cString: strerror(errno))))")
        }
        directoryDescriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard directoryDescriptor >= 0 else {
            throw EventLogError(path: directory.path, reason: Self.openFailure(errno, what: "directory"))
        }
        Self.tighten(directoryDescriptor, to: Self.directoryMode)
        eventsURL = directory.appendingPathComponent("events.jsonl")
        do {
            eventsDescriptor = try Self.openForAppending("events.jsonl", in: directoryDescriptor, path: eventsURL.path)
        } catch {
            SystemCall.close(directoryDescriptor)
            throw error
        }
        encoder = JSONEncoder()
        encoder.dateEncodingStrategy = UTCTimestamp.encodingStrategy
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        gathered = delay.map(EventGathering.init(delay:))
        if let gathered { gathered.startWriter { [self] in flush() } }
    }

    deinit {
        for case let descriptor? in outputDescriptors.withLock({ Array($0.values) }) { SystemCall.close(descriptor) }
        SystemCall.close(eventsDescriptor)
        SystemCall.close(directoryDescriptor)
    }

    private static func openForAppending(_ name: String, in directory: Int32, path: String) throws -> Int32 {
        let descriptor = openat(directory, name, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else { throw EventLogError(path: path, reason: openFailure(errno, what: "file")) }
        tighten(descriptor, to: fileMode)
        return descriptor
    }

    /// The mode of the log directory: the owner's only.
    static let directoryMode: mode_t = 0o700
    /// The mode of every log file.
    static let fileMode: mode_t = 0o600

    /// Takes every permission beyond `mode` from an open file or directory (a log left by an older host).
    private static func tighten(_ descriptor: Int32, to mode: mode_t) {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & 0o777 & ~mode != 0 else { return }
        _ = fchmod(descriptor, status.st_mode & 0o777 & mode)
    }

    private static func openFailure(_ code: Int32, what: String) -> String {
        if code == ELOOP || (what == "directory" && code == ENOTDIR) {
            return "is a symbolic link\(what == "directory" ? " or not a directory" : ""); the host does not write through links"
        }
        return "cannot be opened: \(String(cString: strerror(code)))"
    }

    /// Appends an event; when events are gathered, a call's small events are queued as they are
    /// and encoded by the log's writer thread, not by the caller's.
    public func record(_ event: HostEvent) {
        if let gathered, EventGathering.canWaitUnencoded(event) {
            if gathered.add(event, to: eventsDescriptor) { flush() }
            return
        }
        guard let json = encode(event) else { return }
        record(encoded: json)
    }

    /// An event as the log writes it (one JSON object: sorted keys, ISO 8601 times), for a
    /// caller that sends the same bytes elsewhere too (the daemon's event notifications).
    public func encode(_ event: HostEvent) -> Data? {
        PlainEventJSON.encode(event) ?? (try? encoder.encode(event))
    }

    /// Appends an event ``encode(_:)`` encoded (or, when events are gathered, queues it).
    public func record(encoded json: Data) {
        var line = json
        line.append(UInt8(ascii: "\n"))
        append(line, to: eventsDescriptor)
    }

    /// Writes the gathered lines now, each file's in the order they were recorded (a no-op when
    /// lines are not gathered). The daemon calls it as it stops.
    public func flush() {
        gathered?.takeAndWrite(encode: encode) { Self.append($1, to: $0) }
    }

    public func recordOutput(bundleIdentifier: String, pid: Int32, stream: String, line: String) {
        let stamp = UTCTimestamp.string(from: Date())
        let text = Data("\(stamp) [pid \(pid) \(stream)] \(line)\n".utf8)
        if let descriptor = outputDescriptor(for: bundleIdentifier) { append(text, to: descriptor) }
    }

    /// Opens the extension's output log now rather than on its first line.
    public func prepareOutput(bundleIdentifier: String) {
        _ = outputDescriptor(for: bundleIdentifier)
    }

    /// The extension's output log, opened (created as needed) on first use; nil when it cannot be.
    private func outputDescriptor(for bundleIdentifier: String) -> Int32? {
        outputDescriptors.withLock { descriptors -> Int32? in
            if let known = descriptors[bundleIdentifier] { return known }
            let safeName = String(bundleIdentifier.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" })
            let opened = try? Self.openForAppending(safeName + ".log", in: directoryDescriptor,
                                                    path: directory.appendingPathComponent(safeName + ".log").path)
            descriptors[bundleIdentifier] = .some(opened)
            return opened
        }
    }

    /// Writes `line` now, or queues it when lines are gathered (past the bound, the recording
    /// thread writes what waits itself: memory stays bounded).
    private func append(_ line: Data, to descriptor: Int32) {
        guard let gathered else { return Self.append(line, to: descriptor) }
        if gathered.add(line, to: descriptor) { flush() }
    }

    /// One `write(2)` per line on an `O_APPEND` descriptor: the kernel places it whole at the
    /// end, whatever other processes append at the same moment.
    private static func append(_ line: Data, to descriptor: Int32) {
        line.withUnsafeBytes { bytes in try? SystemCall.writeAll(descriptor, bytes) }
    }
}

/// The event log cannot be used, with the path and why.
public struct EventLogError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public var description: String { "cannot write the event log: \(path) \(reason)" }
}
