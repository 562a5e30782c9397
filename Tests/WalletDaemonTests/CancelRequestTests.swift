import Foundation
import Testing
import WalletDaemon
import WalletTestSupport
import WalletWire

/// A client's `$/cancelRequest` cancels any request in flight: it is answered at once with
/// -32002, and an `extension.call` stops waiting for its extension (which gets the cancel).
@Suite(.serialized, .timeLimit(.minutes(2)))
struct CancelRequestTests {
    static let helper = "com.example.testhelper.TestHelperExt"

    @Test("$/cancelRequest answers an extension.call to a hung extension at once, warm or cold", arguments: [true, false])
    func cancellingAnExtensionCallAnswersItAtOnce(warm: Bool) async throws {
        let apps = try appsDirectory(with: [ExampleBundles.testHelperApp])
        let appex = apps.appendingPathComponent("TestHelper.app/PlugIns/TestHelperExt.appex")
        try ExampleBundles.setMode("hang", appex: appex)
        let daemon = try await DaemonProcess(apps: apps, arguments: warm ? ["--keep-warm"] : []).waitUntilServing()
        if warm {
            try await waitFor("warm") { try await daemon.process(Self.helper)?.pid != nil }
        }
        let client = try DaemonClient(connectingTo: daemon.socketPath)
        client.setReceiveTimeout(.seconds(20))
        // A minute's deadline: without the cancel, nothing would answer for a minute.
        try client.send(Data((#"{"jsonrpc":"2.0","id":"slow","method":"extension.call","params":{"appex":"\#(appex.path)","#
                              + #""method":"status","deadlineMs":60000}}"# + "\n").utf8))
        try await daemon.waitForCallInFlight("status", timeout: .seconds(10))
        let cancelledAt = ContinuousClock.now
        try client.send(Data((#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"slow"}}"# + "\n").utf8))
        let answer = try #require(try client.readMessage())
        #expect(answer.id == .string("slow"))
        #expect(answer.error?.code == RPCErrorCode.requestCancelled, "\(String(decoding: answer.line, as: UTF8.self))")
        #expect(ContinuousClock.now - cancelledAt < .seconds(5))
        // The request's slot is free again and the daemon serves the client on.
        let status = try await client.call("host.status", JSONValue.object([:]), as: DaemonAPI.Status.self)
        #expect(status.requestsInFlight == 1, "only host.status itself")
        // A second cancel of the same id, or one of an id never sent, is ignored.
        try client.send(Data((#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"slow"}}"# + "\n").utf8))
        try client.send(Data((#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":12345}}"# + "\n").utf8))
        let again = try await client.call("host.status", JSONValue.object([:]), as: DaemonAPI.Status.self)
        #expect(again.pid == daemon.pid)
    }
}
