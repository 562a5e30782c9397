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

    @Test("a gathering log writes nothing until its delay or a flush, then every line in the order recorded")
    func gatheredEventsWaitForTheFlush() async throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-eventlog")
        defer { directory.remove() }
        // A delay no test waits out: only flush() writes.
        let log = try EventLogFile(directory: directory.url, gatheringFor: .seconds(600))
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask { for index in 0..<100 { log.record(stop("\(writer)-\(index)")) } }
            }
        }
        #expect(try Data(contentsOf: log.eventsURL).isEmpty, "gathered events were written before the flush")
        log.flush()
        let lines = try String(contentsOf: log.eventsURL, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 400)
        // Each writer's own events in its order.
        for writer in 0..<4 {
            let indexes = lines.compactMap { line -> Int? in
                guard let range = line.range(of: "\(writer)-") , line[line.index(before: range.lowerBound)] == " " else { return nil }
                return Int(line[range.upperBound...].prefix { $0.isNumber })
            }
            #expect(indexes == Array(0..<100), "writer \(writer): \(indexes.prefix(5))")
        }
    }

    @Test("a gathering log holds extensions' output too, each file's lines in order, until the flush")
    func gatheredOutputWaitsForTheFlush() throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-eventlog")
        defer { directory.remove() }
        let log = try EventLogFile(directory: directory.url, gatheringFor: .seconds(600))
        for index in 0..<50 {
            log.recordOutput(bundleIdentifier: "com.example.one", pid: 1, stream: "stdout", line: "one \(index)")
            log.recordOutput(bundleIdentifier: "com.example.two", pid: 2, stream: "stderr", line: "two \(index)")
            log.record(stop("event \(index)"))
        }
        let one = directory.url.appendingPathComponent("com.example.one.log")
        let two = directory.url.appendingPathComponent("com.example.two.log")
        #expect(try Data(contentsOf: one).isEmpty, "output was written before the flush")
        log.flush()
        for (file, name) in [(one, "one"), (two, "two")] {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
            #expect(lines.map { $0.split(separator: " ").suffix(2).joined(separator: " ") } == (0..<50).map { "\(name) \($0)" })
        }
        #expect(try String(contentsOf: log.eventsURL, encoding: .utf8).split(separator: "\n").count == 50)
    }

    @Test("a gathering log's writer thread writes the events after its delay")
    func gatheredEventsReachTheFile() async throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-eventlog")
        defer { directory.remove() }
        let log = try EventLogFile(directory: directory.url, gatheringFor: .milliseconds(5))
        for index in 0..<50 { log.record(stop("event \(index)")) }
        let giveUp = ContinuousClock.now + .seconds(10)
        var lines = 0
        while ContinuousClock.now < giveUp {
            lines = try String(contentsOf: log.eventsURL, encoding: .utf8).split(separator: "\n").count
            if lines == 50 { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(lines == 50)
    }

    @Test("past its bound in bytes, a gathering log writes at once: a flood of events does not pile up in memory")
    func gatheringIsBounded() throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-eventlog")
        defer { directory.remove() }
        let log = try EventLogFile(directory: directory.url, gatheringFor: .seconds(600))
        let words = String(repeating: "x", count: 1000)
        for index in 0..<(EventGathering.maximumBytes / 1000 + 10) { log.record(stop("\(index) \(words)")) }
        let written = try Data(contentsOf: log.eventsURL).count
        #expect(written >= EventGathering.maximumBytes, "\(written) bytes written")
    }

    @Test("a call's small events wait unencoded, each counted as its bound in bytes; a large one is encoded at once",
          arguments: [false, true])
    func unencodedEventsCountAgainstTheBound(large: Bool) throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-eventlog")
        defer { directory.remove() }
        let log = try EventLogFile(directory: directory.url, gatheringFor: .seconds(600))
        // A method over the short strings' bound makes every event one encoded at once, of its real size.
        let method = large ? String(repeating: "m", count: 3000) : "status"
        let fitting = EventGathering.maximumBytes / EventGathering.bytesPerQueuedEvent
        func call(_ index: Int) -> HostEvent {
            HostEvent(.result(HostEvent.Completion(method: method, requestID: "\(index)", milliseconds: 1, footprintBytes: nil)),
                      bundleIdentifier: "com.example", pid: 1)
        }
        #expect(EventGathering.canWaitUnencoded(call(0)) == !large)
        // The largest event that may wait weighs less than it counts for.
        let long = String(repeating: "a", count: 128)
        for payload: HostEvent.Payload in [.result(HostEvent.Completion(method: long, requestID: long, milliseconds: 123_456.789,
                                                                        footprintBytes: .max)),
                                           .call(HostEvent.Request(method: long, requestID: long)),
                                           .service(HostEvent.Request(method: long, requestID: long))] {
            let largest = HostEvent(payload, bundleIdentifier: long, pid: .max)
            #expect(EventGathering.canWaitUnencoded(largest))
            #expect(try #require(log.encode(largest)).count < EventGathering.bytesPerQueuedEvent, "\(largest.kind)")
        }
        for index in 0..<(fitting - 1) { log.record(call(index)) }
        let before = try Data(contentsOf: log.eventsURL)
        log.record(call(fitting - 1))
        let lines = try String(contentsOf: log.eventsURL, encoding: .utf8).split(separator: "\n")
        if large {
            // 3 KB each: the byte bound was reached long before, by what they really weigh.
            #expect(!before.isEmpty, "large events waited unencoded past the bound")
        } else {
            #expect(before.isEmpty, "written before the bound")
            #expect(lines.count == fitting)
        }
    }

    @Test("events queued as they are and queued encoded reach the file in order, as the bytes of events written at once")
    func gatheredEventsKeepTheirOrderWhetherEncodedOrNot() throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-eventlog")
        defer { directory.remove() }
        let gathering = try EventLogFile(directory: directory.url.appendingPathComponent("gathering"), gatheringFor: .seconds(600))
        let direct = try EventLogFile(directory: directory.url.appendingPathComponent("direct"))
        let time = Date(timeIntervalSince1970: 1_790_000_000.25)
        for index in 0..<40 {
            // A call's events wait unencoded; a stop is encoded at once; every third is encoded
            // by the caller (as for a subscriber).
            let payload: HostEvent.Payload = index % 5 == 4
                ? .stop(HostEvent.Stop(reason: .requested("event \(index)")))
                : .result(HostEvent.Completion(method: "status", requestID: "\(index)", milliseconds: 0.25, footprintBytes: 4096))
            let event = HostEvent(payload, bundleIdentifier: "com.example", pid: 1, time: time)
            if index % 3 == 0 {
                gathering.record(encoded: try #require(gathering.encode(event)))
            } else {
                gathering.record(event)
            }
            direct.record(event)
            gathering.recordOutput(bundleIdentifier: "com.example", pid: 1, stream: "stdout", line: "output \(index)")
        }
        gathering.flush()
        let written = try String(contentsOf: gathering.eventsURL, encoding: .utf8)
        #expect(written == (try String(contentsOf: direct.eventsURL, encoding: .utf8)))
        #expect(written.split(separator: "\n").count == 40)
        let output = try String(contentsOf: gathering.directory.appendingPathComponent("com.example.log"), encoding: .utf8)
        #expect(output.split(separator: "\n").map { $0.split(separator: " ").suffix(2).joined(separator: " ") }
                == (0..<40).map { "output \($0)" })
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
