import Foundation
import Testing
@testable import WalletHostRuntime
import WalletTestSupport
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// The event log on disk: whole lines whatever else appends, and never through a link.
@Suite("EventLogFile")
struct EventLogFileTests {
    private func stop(_ words: String) -> HostEvent {
        HostEvent(.stop(HostEvent.Stop(reason: .requested(words))), bundleIdentifier: "com.example", pid: 1)
    }

    @Test("two logs appending to one file from many threads: every line stays whole")
    func concurrentAppendsStayWhole() async throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-eventlog")
        defer { directory.remove() }
        // Two instances stand for two hosts: separate descriptors on the same file.
        let logs = [try EventLogFile(directory: directory.url), try EventLogFile(directory: directory.url)]
        let words = String(repeating: "x", count: 3000)
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    for index in 0..<250 { logs[writer % 2].record(stop("\(writer)-\(index) \(words)")) }
                }
            }
        }
        let lines = try String(contentsOf: logs[0].eventsURL, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2000)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        for line in lines { _ = try decoder.decode(HostEvent.self, from: Data(line.utf8)) }
    }

    @Test("a logs directory that is a symbolic link is refused, naming it")
    func symlinkedDirectory() throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-eventlog")
        defer { directory.remove() }
        let elsewhere = directory.url.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let logs = directory.url.appendingPathComponent("logs")
        try FileManager.default.createSymbolicLink(at: logs, withDestinationURL: elsewhere)
        #expect {
            _ = try EventLogFile(directory: logs)
        } throws: { error in
            "\(error)".contains(logs.path) && "\(error)".contains("symbolic link")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
    }

    @Test("an events.jsonl or a bundle log that is a symbolic link is never written through")
    func symlinkedFiles() throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-eventlog")
        defer { directory.remove() }
        let target = directory.url.appendingPathComponent("target.txt")
        try Data("untouched\n".utf8).write(to: target)
        let logs = directory.url.appendingPathComponent("logs")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: logs.appendingPathComponent("com.example.log"), withDestinationURL: target)
        let log = try EventLogFile(directory: logs)
        log.recordOutput(bundleIdentifier: "com.example", pid: 1, stream: "stderr", line: "hello")
        #expect(try String(contentsOf: target, encoding: .utf8) == "untouched\n")

        try FileManager.default.removeItem(at: logs.appendingPathComponent("events.jsonl"))
        try FileManager.default.createSymbolicLink(at: logs.appendingPathComponent("events.jsonl"), withDestinationURL: target)
        #expect(throws: EventLogError.self) { _ = try EventLogFile(directory: logs) }
        #expect(try String(contentsOf: target, encoding: .utf8) == "untouched\n")
    }

    @Test("the output cap logs up to its lines and bytes, then one notice, then counts what it drops")
    func outputCap() {
        var log = OutputLog()
        let limit = OutputLimit(lines: 3, bytes: 100)
        #expect(log.admit(bytes: 40, limit: limit) == .log)
        #expect(log.admit(bytes: 40, limit: limit) == .log)
        #expect(log.admit(bytes: 40, limit: limit) == .logWithNotice)
        #expect(log.admit(bytes: 1, limit: limit) == .drop, "nothing is logged after the notice, even what would fit")
        #expect(log.dropped.lines == 2 && log.dropped.bytes == 41)
        var byLines = OutputLog()
        for _ in 0..<3 { #expect(byLines.admit(bytes: 1, limit: limit) == .log) }
        #expect(byLines.admit(bytes: 1, limit: limit) == .logWithNotice)
    }

    @Test("log text from an extension cannot forge lines, and long text is cut with its size")
    func logText() {
        #expect("a\nforged [pid 1 stderr] x\r\n".escapedForLogLine(limit: 100) == #"a\nforged [pid 1 stderr] x\r\n"#)
        #expect(String(repeating: "é", count: 100).escapedForLogLine(limit: 10) == String(repeating: "é", count: 5) + "... (200 bytes)")
        #expect(RPCSession.logLevelName("warning") == "warning")
        #expect(RPCSession.logLevelName("info] [pid 1 stderr") == "other")
        #expect(RequestID.string(String(repeating: "9", count: 10_000)).logged.hasSuffix("... (10002 bytes)"))
    }
}
