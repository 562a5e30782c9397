import Foundation
import Testing
import WalletDaemon
import WalletTestSupport
import WalletWire

/// What a client sends that is not the protocol gets one error answer naming the problem; the
/// connection and the daemon go on serving.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct HostileClientTests {
    @Test func everyBadLineGetsItsErrorAndTheConnectionGoesOn() async throws {
        let daemon = try await DaemonProcess().waitUntilServing()
        let client = try DaemonClient(connectingTo: daemon.socketPath)
        client.setReceiveTimeout(.seconds(10))
        let cases: [(line: String, code: Int, says: String)] = [
            ("this is not JSON {{{", RPCErrorCode.parseError, "not a JSON-RPC message"),
            (#"{"id":1,"method":"host.status"}"#, RPCErrorCode.invalidRequest, #""jsonrpc" must be "2.0""#),
            (#"{"jsonrpc":"2.0"}"#, RPCErrorCode.invalidRequest, #"message has neither "method" nor "id""#),
            (#"{"jsonrpc":"2.0","id":2,"method":"no.such.thing"}"#, RPCErrorCode.methodNotFound, "the daemon has no method no.such.thing"),
            (#"{"jsonrpc":"2.0","id":3,"method":"passes.add","params":{"primaryAccountIdentifier":7}}"#, RPCErrorCode.invalidParams,
             "invalid params for passes.add"),
            (#"{"jsonrpc":"2.0","id":4,"method":"events.subscribe","params":{"kinds":["nope"]}}"#, RPCErrorCode.invalidParams,
             "no event kind nope"),
            (#"{"jsonrpc":"2.0","id":5,"method":"extension.call","params":{"appex":"/nonexistent/X.appex","method":"status"}}"#,
             DaemonErrorCode.commandFailed, "cannot load /nonexistent/X.appex"),
        ]
        for (line, code, says) in cases {
            try client.send(Data((line + "\n").utf8))
            let answer = try #require(try client.readMessage(), "no answer to \(line)")
            #expect(answer.error?.code == code, "\(line): \(String(describing: answer.error))")
            #expect(answer.error?.message.contains(says) == true, "\(line): \(answer.error?.message ?? "")")
        }
        // A line over 16 MiB: refused by its size, and the next line is served.
        var huge = Data(repeating: UInt8(ascii: "x"), count: WireProtocol.maximumLineBytes + 10)
        huge.append(0x0A)
        try client.send(huge)
        let refusal = try #require(try client.readMessage())
        #expect(refusal.error?.code == RPCErrorCode.lineTooLong)
        let status = try await client.call("host.status", JSONValue.object([:]), as: DaemonAPI.Status.self)
        #expect(status.pid == daemon.pid)
    }

    /// JSON-RPC ids come back as sent, however large; an id that is not a number or a string
    /// makes the request invalid.
    @Test func idsComeBackAsSentAndAnObjectIdIsRefused() async throws {
        let daemon = try await DaemonProcess().waitUntilServing()
        let client = try DaemonClient(connectingTo: daemon.socketPath)
        client.setReceiveTimeout(.seconds(10))
        for id in ["123456789012345678901234567890", "-9223372036854775809", "1.5", #""a \"quoted\" id""#, "7"] {
            try client.send(Data(#"{"jsonrpc":"2.0","id":\#(id),"method":"device.get"}"#.utf8 + [0x0A]))
            let answer = try #require(try client.readMessage())
            let text = String(decoding: answer.line, as: UTF8.self)
            #expect(text.contains(#""id":\#(id),"#), "sent \(id), got \(text)")
            #expect(answer.error == nil)
        }
        for id in [#"{"n":1}"#, "[1]", "true"] {
            try client.send(Data(#"{"jsonrpc":"2.0","id":\#(id),"method":"device.get"}"#.utf8 + [0x0A]))
            let answer = try #require(try client.readMessage())
            #expect(answer.error?.code == RPCErrorCode.invalidRequest, "id \(id): \(String(decoding: answer.line, as: UTF8.self))")
            #expect(answer.error?.message.contains("\"id\"") == true)
        }
    }
}
