import Foundation
import Synchronization
import Testing
import Wallet
import WalletHostRuntime
import WalletHostTestSupport
import WalletTestSupport
import WalletWire

/// Whatever arrives on fd 4, the host neither crashes nor hangs nor grows without bound; the
/// call fails with a clear error, a hopeless extension is stopped, and other extensions are
/// untouched. Seeded, so a failure names the seed and case that reproduce it.
///
/// `WALLET_HOST_FUZZ_CASES` and `WALLET_HOST_FUZZ_SEED` change the run (scripts/fuzz-reader
/// runs a long one).
@Suite("Reader fuzzing with a hostile extension", .serialized, .timeLimit(.minutes(10)))
struct ReaderFuzzTests {
    static let environment = ProcessInfo.processInfo.environment
    static let caseCount = Int(environment["WALLET_HOST_FUZZ_CASES"] ?? "") ?? 1200
    static let seed = UInt64(environment["WALLET_HOST_FUZZ_SEED"] ?? "") ?? 20_261_122

    /// The replay extension in a bundle of its own (a Python script, like a third party's binary).
    static func replayAppex() throws -> URL {
        // Removed when the test process exits (it was left in the temporary directory, one per run).
        let app = TemporaryDirectory.uniqueURL(prefix: "wallet-host-replay").appendingPathComponent("Replay.app")
        let appex = app.appendingPathComponent("PlugIns/ReplayExt.appex")
        try FileManager.default.createDirectory(at: appex, withIntermediateDirectories: true)
        let appInfo: [String: Any] = ["CFBundleIdentifier": "com.example.replay", "CFBundleExecutable": "Replay"]
        let extensionInfo: [String: Any] = [
            "CFBundleIdentifier": "com.example.replay.ext", "CFBundleExecutable": "ReplayExt", "MinimumOSVersion": "14.0",
            "NSExtension": ["NSExtensionPointIdentifier": WalletExtensionPoint.nonUI, "NSExtensionPrincipalClass": "ReplayExt.Handler"],
        ]
        try PropertyListSerialization.data(fromPropertyList: appInfo, format: .xml, options: 0)
            .write(to: app.appendingPathComponent("Info.plist"))
        try PropertyListSerialization.data(fromPropertyList: extensionInfo, format: .xml, options: 0)
            .write(to: appex.appendingPathComponent("Info.plist"))
        let script = BuildProducts.repositoryRoot.appendingPathComponent("Tests/IntegrationTests/Fixtures/replay-extension.py")
        let executable = appex.appendingPathComponent("ReplayExt")
        try FileManager.default.copyItem(at: script, to: executable)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: executable.path)
        return appex
    }

    @Test("thousands of hostile inputs: every call ends with an answer or a clear error, memory stays bounded")
    func hostileInputs() async throws {
        let events = CountingEventSink()
        let (replay, _, _) = try ExampleBundles.runner(appex: try Self.replayAppex()) { configuration in
            configuration.events = events
            configuration.deadlineOverrides["fuzz.emit"] = .milliseconds(800)
            configuration.hangGrace = .milliseconds(300)
            configuration.stopGrace = .milliseconds(100)
        }
        let (control, _, _) = try ExampleBundles.runner(appex: try ExampleBundles.testHelper(mode: "normal"))
        let residentBefore = try Self.residentBytes()
        var generator = FuzzCaseGenerator(seed: Self.seed)
        var outcomes: [String: Int] = [:]

        for index in 0..<Self.caseCount {
            let fuzzCase = generator.next()
            let started = ContinuousClock.now
            let outcome = await replay.call("fuzz.emit", params: fuzzCase, resultType: JSONValue.self)
            let elapsed = ContinuousClock.now - started
            #expect(elapsed < .seconds(5), "seed \(Self.seed) case \(index) (\(fuzzCase.kind)) took \(elapsed)")
            switch outcome.result {
            case .success:
                outcomes["\(fuzzCase.kind): answered", default: 0] += 1
            case .failure(let error):
                #expect(!error.message.isEmpty)
                #expect(error.kind != .launchFailed, "seed \(Self.seed) case \(index): \(error.message)")
                outcomes["\(fuzzCase.kind): \(error.kind.rawValue)", default: 0] += 1
            }
            if index % 100 == 99 {
                let status = await control.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
                #expect((try? status.result.get()) != nil, "the well-behaved extension must be untouched")
            }
        }
        // After all that, and once the process of the last input is gone (stopped and reaped:
        // awaited, not slept for), the replay extension, launched again, still answers.
        await replay.stop(reason: "fuzz over")
        let clean = FuzzCase(kind: "clean", chunks: [], answer: true, exit: false)
        let last = await replay.call("fuzz.emit", params: clean, resultType: JSONValue.self)
        if case .failure(let error) = last.result {
            Issue.record("a clean call after the fuzz failed: \(error.message)")
        }
        await replay.stop()
        await control.stop()

        let growth = try Self.residentBytes() - residentBefore
        #expect(growth < 256 * 1024 * 1024, "host memory grew by \(growth / 1_048_576) MB")
        #expect(events.count(of: .protocolError) > 0)
        print("reader fuzz: seed \(Self.seed), \(Self.caseCount) cases, \(replay.launchCount) launches, "
              + "host grew \(growth / 1_048_576) MB; outcomes: "
              + outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    }

    @Test("a half line then EOF fails the call as a termination and is logged")
    func halfLineThenExit() async throws {
        let events = CountingEventSink()
        let (replay, _, _) = try ExampleBundles.runner(appex: try Self.replayAppex()) { configuration in
            configuration.events = events
            configuration.deadlineOverrides["fuzz.emit"] = .seconds(3)
        }
        let fuzzCase = FuzzCase(kind: "half", chunks: [.init(bytes: Data(#"{"jsonrpc":"2.0","id":$ID,"res"#.utf8), repeatCount: 1)],
                                answer: false, exit: true)
        let outcome = await replay.call("fuzz.emit", params: fuzzCase, resultType: JSONValue.self)
        let error = try #require(outcome.result.failureValue, "a half line is no answer")
        #expect(error.kind == .extensionTerminated)
        #expect(events.messages.contains { $0.contains("in the middle of a line") })
        await replay.stop()
    }

    private static func residentBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }
}

/// Counts events by kind and keeps only the last messages, so a flood costs no memory.
final class CountingEventSink: HostEventSink {
    private let state = Mutex<(counts: [HostEvent.Kind: Int], messages: [String])>(([:], []))

    func record(_ event: HostEvent) {
        state.withLock { state in
            state.counts[event.kind, default: 0] += 1
            state.messages.append(event.message)
            if state.messages.count > 200 { state.messages.removeFirst(100) }
        }
    }

    func count(of kind: HostEvent.Kind) -> Int { state.withLock { $0.counts[kind] ?? 0 } }
    var messages: [String] { state.withLock { $0.messages } }
}
