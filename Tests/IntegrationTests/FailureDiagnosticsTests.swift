import Foundation
import Testing
import Wallet
import WalletHostRuntime
import WalletHostTestSupport
import WalletTestSupport
import WalletWire

/// Every failed call says what else the host saw during it, and an unusable response fails its
/// call at once without ever being answered.
@Suite("Failure diagnostics", .serialized, .timeLimit(.minutes(3)))
struct FailureDiagnosticsTests {
    /// A replay extension that writes `bytes` (with `$ID` as the request's id) instead of an answer.
    private func emit(_ bytes: String, deadline: Duration = .seconds(2)) async throws
        -> (CallOutcome<JSONValue>, EventCollector, ExtensionRunner) {
        let (runner, events, _) = try ExampleBundles.runner(appex: try ReaderFuzzTests.replayAppex()) {
            $0.deadlineOverrides["fuzz.emit"] = deadline
            $0.hangGrace = .milliseconds(300)
        }
        // Warm first: a cold Python launch can take longer than the shortest deadline here.
        _ = await runner.prewarm()
        let params = FuzzCase(kind: "diagnostics", chunks: [.init(bytes: Data(bytes.utf8), repeatCount: 1)],
                              answer: false, exit: false)
        let outcome = await runner.call("fuzz.emit", params: params, resultType: JSONValue.self)
        return (outcome, events, runner)
    }

    @Test("a garbage line instead of the answer: the deadline error names it, with an escaped excerpt")
    func garbageInsteadOfAnswer() async throws {
        let (outcome, _, runner) = try await emit("garbage\u{1}!\n", deadline: .milliseconds(300))
        defer { Task { await runner.stop() } }
        let error = try #require(outcome.result.failureValue)
        #expect(error.kind == .deadlineExceeded)
        #expect(error.message.contains("instead of an answer it wrote on fd 4: not valid JSON"))
        let violation = try #require(error.diagnostics.protocolViolations.first)
        #expect(violation.reason == .notJSON)
        #expect(violation.excerpt == #"garbage\x01!"#)
    }

    @Test("an error of the wrong shape fails the call at once as an invalid response, and is not answered")
    func wrongShapeErrorIsNotAnswered() async throws {
        let (outcome, events, runner) = try await emit(#"{"jsonrpc":"2.0","id":$ID,"error":"it broke"}"# + "\n")
        let error = try #require(outcome.result.failureValue)
        #expect(error.kind == .invalidResponse)
        #expect(error.message.contains("answered fuzz.emit with an unusable response"))
        #expect(outcome.totalMilliseconds < 1500, "it must not wait for the 2 s deadline")
        #expect(error.diagnostics.protocolViolations.first?.reason == .wrongShape)
        // The replay extension handles lines in order: once this call is answered, any response
        // the host wrote to the bad line has been read (and would have been logged).
        let next = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        #expect(next.result.failureValue == nil)
        #expect(!events.outputLines.contains { $0.contains("received a response") }, "\(events.outputLines)")
        #expect(events.events.contains { $0.kind == .protocolError })
        await runner.stop()
    }

    @Test("a result nested past the parser's limit fails the call at once, naming the request")
    func deepResult() async throws {
        let depth = 100_000
        let line = #"{"jsonrpc":"2.0","id":$ID,"result":"# + String(repeating: "[", count: depth)
            + String(repeating: "]", count: depth) + "}\n"
        let (outcome, events, runner) = try await emit(line)
        let error = try #require(outcome.result.failureValue)
        #expect(error.kind == .invalidResponse)
        #expect(outcome.totalMilliseconds < 1500)
        let next = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        #expect(next.result.failureValue == nil)
        #expect(!events.outputLines.contains { $0.contains("received a response") })
        await runner.stop()
    }

    @Test("a crash during a call: the error carries the signal, the stderr written during it, and the launch time")
    func crashDiagnostics() async throws {
        let (runner, _, _) = try ExampleBundles.runner(appex: try ExampleBundles.testHelper(mode: "crash-fatal")) {
            $0.deadlineOverrides["status"] = .seconds(5)
        }
        let outcome = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        let error = try #require(outcome.result.failureValue)
        #expect(error.kind == .extensionTerminated)
        #expect(error.diagnostics.termination?.signalName != nil,
                "expected a signal, got \(String(describing: error.diagnostics.termination))")
        #expect(error.diagnostics.stderrTail.contains { $0.contains("crash-fatal mode") }, "\(error.diagnostics) \(error.message)")
        #expect(error.message.contains("was killed by"))
        // The handshake had finished before the crash: the report has a launch time.
        #expect(outcome.launchedProcess)
        #expect(outcome.launchMilliseconds != nil)
        await runner.stop()
    }

    @Test("a script whose #! interpreter is missing: the launch error names the interpreter")
    func missingInterpreter() async throws {
        let appex = try ReaderFuzzTests.replayAppex()
        let executable = appex.appendingPathComponent("ReplayExt")
        try Data("#!/nonexistent/python9 -u\nprint('never')\n".utf8).write(to: executable)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: executable.path)
        let (runner, events, _) = try ExampleBundles.runner(appex: appex)
        let outcome = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        let error = try #require(outcome.result.failureValue)
        #expect(error.kind == .launchFailed)
        #expect(error.message.contains("its interpreter /nonexistent/python9"), "\(error.message)")
        #expect(events.events.contains { $0.kind == .spawnFailed })
    }

    @Test("wallet-host call --json prints the diagnostics of a failed call")
    func cliDiagnostics() throws {
        let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-diagnostics")
        defer { try? FileManager.default.removeItem(at: state) }
        let appex = try ExampleBundles.testHelper(mode: "crash-fatal")
        let run = try WalletHostCommand.run(["call", appex.path, "status", "--json", "--state", state.path,
                                             "--deadline", "status=5s"])
        #expect(run.status == 1)
        let data = Data(run.standardOutput.utf8)
        let report = try JSONDecoder().decode(JSONValue.self, from: data)
        let diagnostics = try #require(report["diagnostics"], "no diagnostics in \(String(decoding: data, as: UTF8.self))")
        #expect(diagnostics["signal"] != nil)
        let stderr = try #require(diagnostics["stderrTail"].flatMap(\.arrayElements), "no stderrTail array in \(diagnostics)")
        #expect(stderr.contains { if case .string(let line) = $0 { line.contains("crash-fatal mode") } else { false } })
    }
}

extension FailureDiagnosticsTests {
    @Test("wallet-host call on a hung extension says it was declared hung after the grace")
    func cliHang() throws {
        let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-hang")
        defer { try? FileManager.default.removeItem(at: state) }
        let appex = try ExampleBundles.testHelper(mode: "hang")
        let run = try WalletHostCommand.run(["call", appex.path, "status", "--state", state.path,
                                             "--deadline", "status=2s", "--hang-grace", "300ms"])
        #expect(run.status == 1)
        #expect(run.standardOutput.contains("did not complete within its 2 s deadline"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("the host declared it hung and stopped it"), "\(run.standardOutput)")
    }
}

extension JSONValue {
    /// The elements of an array; nil for any other value.
    var arrayElements: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }
}

extension Result {
    /// The error, or nil on success.
    var failureValue: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
