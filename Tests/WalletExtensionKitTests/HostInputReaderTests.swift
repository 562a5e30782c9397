import Foundation
import Synchronization
import Testing
@testable import CoreGraphics
@testable import PassKit
@testable import UIKit
@testable import WalletExtensionKit
@testable import WalletExtensionRuntime
import WalletWire

/// A runtime fed through a real pipe by a ``HostInputReader``, wired as `WalletExtension.main()`
/// wires it: calls run on the reader's own thread, and the standby takes the reader role over
/// from a call that runs on or waits for the host.
final class PipeHarness: Sendable {
    let output = RecordingOutput()
    let exits = ExitRecorder()
    let runtime: ExtensionRuntime
    private let writeEnd: Int32

    init() {
        var descriptors: [Int32] = [0, 0]
        precondition(pipe(&descriptors) == 0)
        writeEnd = descriptors[1]
        let reader = HostInputReader(fileDescriptor: descriptors[0])
        let exits = exits
        runtime = ExtensionRuntime(output: output, resolver: PrincipalClassResolver(registered: TestPrincipals.all),
                                   terminate: { exits.record($0) }, startThread: reader.startCall,
                                   beforeBlocking: reader.threadWillBlock)
        precondition(reader.start(runtime: runtime))
    }

    /// Writes one line, newline added, as the host would.
    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        precondition(bytes.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) } == bytes.count)
    }

    func initialize(principalClass: String) async -> JSONValue? {
        let params = InitializeParams(
            protocolVersion: WireProtocol.version, extensionPoint: WalletExtensionPoint.nonUI, principalClass: principalClass,
            bundleIdentifier: "com.example.tests.Ext", containingAppBundleIdentifier: "com.example.tests",
            appGroups: [:], memoryLimitBytes: 55 << 20, deadlines: ["status": 100])
        let line = try! WireCodec().request(id: .number(1), method: WireMethod.initialize, params: params)
        send(String(decoding: line.dropLast(), as: UTF8.self))
        return await output.messages(id: .integer(1)).first
    }

    /// Closes the host's end: the reader sees end of input.
    func close() {
        _ = Glibc.close(writeEnd)
    }
}

/// Blocks its thread until released (its own semaphore: other suites run BlockingHandler).
final class PipeBlockingHandler: PKIssuerProvisioningExtensionHandler {
    static let release = DispatchSemaphore(value: 0)

    override func status(completion: @escaping (PKIssuerProvisioningExtensionStatus) -> Void) {
        Self.release.wait()
        completion(PKIssuerProvisioningExtensionStatus())
    }

    override func passEntries(completion: @escaping ([PKIssuerProvisioningExtensionPassEntry]) -> Void) {
        completion([])
    }
}

@Suite("Reading fd 3", .timeLimit(.minutes(1)))
struct HostInputReaderTests {
    @Test("warm calls run on the reader's thread, each on a fresh instance, and end of input ends the process")
    func warmCallsAreAnswered() async throws {
        let harness = PipeHarness()
        #expect(await harness.initialize(principalClass: "WalletExtensionKitTests.CountingHandler")?["result"] != nil)
        for id in 2...200 {
            harness.send(#"{"id":\#(id),"jsonrpc":"2.0","method":"status","params":{}}"#)
        }
        let answers = await harness.output.messages(id: .integer(200))
        #expect(answers.first?["result"]?["passEntriesAvailable"] == .bool(true))
        let all = harness.output.messages.filter { $0["result"]?["passEntriesAvailable"] == .bool(true) }
        #expect(all.count == 199, "every call answered once, by a fresh instance")
        harness.close()
        try await waitUntil { harness.exits.statuses.withLock { $0 } == [0] }
    }

    @Test("a blocked handler on the reader's thread does not hold up other calls, cancellation or exit")
    func aBlockedCallIsTakenOver() async throws {
        let harness = PipeHarness()
        _ = await harness.initialize(principalClass: "WalletExtensionKitTests.PipeBlockingHandler")
        harness.send(#"{"id":2,"jsonrpc":"2.0","method":"status","params":{}}"#)
        harness.send(#"{"id":3,"jsonrpc":"2.0","method":"passEntries","params":{}}"#)
        #expect(await harness.output.messages(id: .integer(3)).first?["result"]?["entries"] == .array([]))
        // While the blocked call runs, calls are handed off before they start: several at once.
        for id in 4...9 {
            harness.send(#"{"id":\#(id),"jsonrpc":"2.0","method":"passEntries","params":{}}"#)
        }
        #expect(await harness.output.messages(id: .integer(9)).first?["result"] != nil)
        harness.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}}"#)
        // The reader handles a cancel as it reads it and would write an answer to it at once; with
        // every other call answered it is idle, so 20 ms is ample for an answer that must not come.
        try await Task.sleep(for: .milliseconds(20))
        #expect(harness.output.messages.filter { $0["id"] == .integer(2) }.isEmpty)
        PipeBlockingHandler.release.signal()
        #expect(await harness.output.messages(id: .integer(2)).first?["result"] != nil, "answered late, once")
        harness.send(#"{"id":10,"jsonrpc":"2.0","method":"passEntries","params":{}}"#)
        #expect(await harness.output.messages(id: .integer(10)).first?["result"] != nil)
        harness.send(#"{"jsonrpc":"2.0","method":"exit"}"#)
        try await waitUntil { harness.exits.statuses.withLock { $0 } == [0] }
        #expect(harness.output.messages.filter { $0["id"] == .integer(2) }.count == 1)
    }

    /// Polls `condition` for up to five seconds.
    private func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("condition not met within 5 s")
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

extension HostServiceTests {
    /// In the serialized host-services suite: it installs the process-wide runtime.
    @Test func aSynchronousHostServiceOnTheReadersThreadGetsItsAnswer() async throws {
        let harness = PipeHarness()
        ExtensionRuntime.current.withLock { $0 = harness.runtime }
        defer { ExtensionRuntime.current.withLock { $0 = nil } }
        _ = await harness.initialize(principalClass: "WalletExtensionKitTests.PassLibraryHandler")
        for round in 0..<3 {
            let id = 2 + round
            harness.send(#"{"id":\#(id),"jsonrpc":"2.0","method":"status","params":{}}"#)
            let request = try #require(await harness.output.messages(id: .string("ext-\(round + 1)")).first)
            #expect(request["method"] == .string("passLibrary.passes"))
            harness.send(#"{"jsonrpc":"2.0","id":"ext-\#(round + 1)","result":[{"primaryAccountIdentifier":"A","primaryAccountNumberSuffix":"4242","deviceName":"iPhone","isRemotePass":false}]}"#)
            let status = try #require(await harness.output.messages(id: .integer(id)).first)
            #expect(status["result"]?["requiresAuthentication"] == .bool(true))
        }
        harness.close()
    }
}
