import Foundation
import Synchronization

/// Appends events as JSON lines to a file, and each extension's stdout/stderr to
/// `<directory>/<bundle id>.log` as `time [pid N stream] line`.
public final class EventLogFile: HostEventSink {
    public let eventsURL: URL
    public let directory: URL
    private let state = Mutex<[String: FileHandle]>([:])
    private let events: FileHandle
    private let encoder: JSONEncoder

    /// Opens (creating as needed) `<directory>/events.jsonl` for appending.
    /// - Throws: when the directory or file cannot be created.
    public init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        eventsURL = directory.appendingPathComponent("events.jsonl")
        events = try Self.openForAppending(eventsURL)
        encoder = JSONEncoder()
        encoder.dateEncodingStrategy = UTCTimestamp.encodingStrategy
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    private static func openForAppending(_ url: URL) throws -> FileHandle {
        if !FileManager.default.fileExists(atPath: url.path) {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        return handle
    }

    public func record(_ event: HostEvent) {
        guard var line = try? encoder.encode(event) else { return }
        line.append(UInt8(ascii: "\n"))
        state.withLock { _ in try? events.write(contentsOf: line) }
    }

    public func recordOutput(bundleIdentifier: String, pid: Int32, stream: String, line: String) {
        let stamp = UTCTimestamp.string(from: Date())
        let text = Data("\(stamp) [pid \(pid) \(stream)] \(line)\n".utf8)
        state.withLock { handles in
            if handles[bundleIdentifier] == nil {
                let safeName = bundleIdentifier.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" }
                handles[bundleIdentifier] = try? Self.openForAppending(directory.appendingPathComponent(String(safeName) + ".log"))
            }
            try? handles[bundleIdentifier]?.write(contentsOf: text)
        }
    }
}
