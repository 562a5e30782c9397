import Foundation
import Testing
import WalletHostRuntime
import WalletHostTestSupport
import WalletTestSupport
import WalletWire

/// The event log as a reader sees it: every call closed exactly once, never before it was
/// asked, and every line on disk a `HostEvent` again.
@Suite("Event log with real processes", .serialized, .timeLimit(.minutes(2)))
struct EventLogTests {
    @Test("every call event comes before its one closing event, across warm, failed and refused calls")
    func callsAreClosedOnceInOrder() async throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-events")
        defer { directory.remove() }
        let file = try EventLogFile(directory: directory.url)
        let appex = try ExampleBundles.testHelper(mode: "normal")
        let collector = EventCollector(forwardingTo: file)
        let (runner, _, _) = try ExampleBundles.runner(appex: appex) { $0.events = collector }
        for _ in 0..<200 {
            _ = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        }
        // A method the extension did not list: refused after the handshake, never asked.
        _ = await runner.call("noSuchMethod", params: NoParams(), resultType: JSONValue.self)
        try ExampleBundles.setMode("crash-signal", appex: appex)
        _ = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        _ = await collector.firstEvent(within: .seconds(5)) { $0.kind == .exit }
        await runner.stop()

        let recorded = collector.events
        var opened: [String: Int] = [:]
        var closed: [String: Int] = [:]
        for (index, event) in recorded.enumerated() {
            switch event.payload {
            case .call(let request):
                #expect(opened[request.requestID] == nil, "request \(request.requestID) asked twice in one process")
                opened[request.requestID] = index
            case .result(let completion):
                closed[completion.requestID, default: 0] += 1
                #expect((opened[completion.requestID] ?? .max) < index, "result of \(completion.requestID) before its call")
            case .error(let completion):
                closed[completion.requestID, default: 0] += 1
                #expect((opened[completion.requestID] ?? .max) < index, "error of \(completion.requestID) before its call")
            case .deadlineMiss(let miss):
                closed[miss.requestID, default: 0] += 1
            default:
                break
            }
        }
        // One process throughout (the crash is the last call), so request ids are unique.
        #expect(opened.count >= 202)
        for (id, _) in opened { #expect(closed[id] == 1, "call \(id) closed \(closed[id] ?? 0) times") }
        #expect(recorded.contains { if case .exit(let exit) = $0.payload { exit.status == .signaled(SIGSEGV) } else { false } })

        // Every line on disk decodes as an event recorded. The file and the collector each keep
        // their own order: a call's result may be logged after the next call was asked.
        let lines = try String(contentsOf: file.eventsURL, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == recorded.count)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        var fileOrder: [String: Int] = [:]
        for (index, line) in lines.enumerated() {
            let decoded = try decoder.decode(HostEvent.self, from: Data(line.utf8))
            #expect(recorded.contains { $0.payload == decoded.payload && $0.pid == decoded.pid }, "\(line)")
            switch decoded.payload {
            case .call(let request): fileOrder[request.requestID] = index
            case .result(let completion):
                #expect((fileOrder[completion.requestID] ?? .max) < index, "on disk, result \(completion.requestID) before its call")
            default: break
            }
        }
    }

    @Test("a $/log message cannot forge log lines, and its level cannot forge a stream name")
    func logNotificationsAreEscaped() async throws {
        let (runner, events, _) = try ExampleBundles.runner(appex: try ReaderFuzzTests.replayAppex())
        let notification = #"{"jsonrpc":"2.0","method":"$/log","params":{"level":"info] [pid 1 stderr","message":"real\n2026-01-01T00:00:00Z [pid 1 stderr] forged"}}"# + "\n"
        let params = FuzzCase(kind: "log", chunks: [.init(bytes: Data(notification.utf8), repeatCount: 1)], answer: true, exit: false)
        _ = await runner.call("fuzz.emit", params: params, resultType: JSONValue.self)
        await runner.stop()
        let logged = events.outputLines.filter { $0.hasPrefix("log.") }
        #expect(logged == [#"log.other: real\n2026-01-01T00:00:00Z [pid 1 stderr] forged"#], "\(events.outputLines)")
    }

    @Test("output past the cap is not logged: one notice, then the count of what was dropped at exit")
    func outputCap() async throws {
        let (runner, events, _) = try ExampleBundles.runner(appex: try ExampleBundles.testHelper(mode: "stdout-noise")) {
            $0.outputLimit = OutputLimit(lines: 10, bytes: 1 << 20)
        }
        for _ in 0..<4 { _ = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self) }
        await runner.stop()
        let output = events.outputLines
        let host = output.filter { $0.hasPrefix("host: ") }
        #expect(output.count - host.count == 10, "\(output)")
        #expect(host.first == "host: (output past 10 lines or 1 MB is not logged)")
        #expect(host.last?.contains("14 lines") == true, "\(host)")
    }
}
