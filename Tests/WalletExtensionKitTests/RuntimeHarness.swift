import Foundation
import Synchronization
@testable import CoreGraphics
@testable import PassKit
@testable import UIKit
@testable import WalletExtensionKit
@testable import WalletExtensionRuntime
import WalletWire

/// Collects what the runtime writes to "fd 4", one JSON value per line.
final class RecordingOutput: WireOutput, Sendable {
    private let buffer = Mutex(Data())

    func write(_ bytes: Data) throws(WireOutputError) {
        buffer.withLock { $0.append(bytes) }
    }

    /// Every complete line written so far, decoded; a line that is not JSON becomes a string.
    var messages: [JSONValue] {
        let data = buffer.withLock { $0 }
        return data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).map { line in
            (try? JSONDecoder().decode(JSONValue.self, from: Data(line))) ?? .string(String(decoding: line, as: UTF8.self))
        }
    }

    /// The messages whose `id` is `id`, waiting up to `timeout` for at least `count` of them.
    func messages(id: JSONValue, count: Int = 1, timeout: Duration = .seconds(5)) async -> [JSONValue] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let matching = messages.filter { $0["id"] == id }
            if matching.count >= count || ContinuousClock.now >= deadline { return matching }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// Records the statuses a runtime asked the process to exit with.
final class ExitRecorder: Sendable {
    let statuses = Mutex<[Int32]>([])

    func record(_ status: Int32) {
        statuses.withLock { $0.append(status) }
    }
}

/// An ``ExtensionRuntime`` fed by hand: lines in with ``send(_:)``, lines out in ``output``,
/// process exits recorded in ``exits`` instead of performed.
final class RuntimeHarness: Sendable {
    let output = RecordingOutput()
    let exits: ExitRecorder
    let runtime: ExtensionRuntime

    init(registered: [WalletExtensionPrincipal] = TestPrincipals.all) {
        let exits = ExitRecorder()
        self.exits = exits
        runtime = ExtensionRuntime(output: output, resolver: PrincipalClassResolver(registered: registered),
                                   terminate: { exits.record($0) }, startThread: WorkerPool.shared.start)
    }

    /// Sends one line from the "host".
    func send(_ line: String) {
        runtime.receive(line: Data(line.utf8))
    }

    /// Sends `initialize` (id 1) for `principalClass`.
    func initialize(principalClass: String, protocolVersion: Int = WireProtocol.version,
                    appGroups: [String: String] = [:]) {
        let params = InitializeParams(
            protocolVersion: protocolVersion, extensionPoint: WalletExtensionPoint.nonUI, principalClass: principalClass,
            bundleIdentifier: "com.example.tests.Ext", containingAppBundleIdentifier: "com.example.tests",
            appGroups: appGroups, memoryLimitBytes: 55 << 20, deadlines: ["status": 100])
        let line = try! WireCodec().request(id: .number(1), method: WireMethod.initialize, params: params)
        runtime.receive(line: line.dropLast())
    }

    /// Sends request `id` for `method` and waits for its first answer.
    func call(_ method: String, id: Int, params: String = "{}") async -> JSONValue? {
        send(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#)
        return await output.messages(id: .integer(id)).first
    }
}

extension JSONValue {
    /// `error.code` of an error response.
    var errorCode: Int? {
        if case .integer(let code)? = self["error"]?["code"] { return code }
        return nil
    }

    /// The string value, if this is a string.
    var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}
