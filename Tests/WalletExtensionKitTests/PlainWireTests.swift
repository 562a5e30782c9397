import Foundation
import Testing
@testable import CoreGraphics
@testable import PassKit
@testable import UIKit
@testable import WalletExtensionKit
@testable import WalletExtensionRuntime
import WalletTestSupport
import WalletWire

/// The SDK's hand-written wire paths (``WireCodec/decodePlain(_:)``,
/// ``WireCodec/plainResponse(id:result:)``) must be invisible: the same messages as the
/// decoder, the same bytes as the encoder, and nothing accepted that the decoder refuses.
@Suite("Plain wire paths")
struct PlainWireTests {
    let codec = WireCodec()

    static let ids: [RequestID] = [
        .number(0), .number(7), .number(-3), .number(Int.max), .number(Int.min + 1),
        .string("abc"), .string("a/b"), .string("call-9"), .string(""), .string("~ {}[],:"),
    ]

    @Test("a plain status or null response is byte for byte what the encoder writes")
    func plainResponsesMatchTheEncoder() throws {
        for id in Self.ids {
            for bits in 0..<8 {
                let status = StatusResult(passEntriesAvailable: bits & 1 != 0, remotePassEntriesAvailable: bits & 2 != 0,
                                          requiresAuthentication: bits & 4 != 0)
                let plain = try #require(codec.plainResponse(id: id, result: status))
                #expect(Data(plain) == (try codec.response(id: id, result: status)), "\(id) \(status)")
            }
            let plain = try #require(codec.plainResponse(id: id, result: NullResult()))
            #expect(Data(plain) == (try codec.response(id: id, result: NullResult())), "\(id)")
        }
    }

    @Test("a string id the encoder would escape is left to the encoder")
    func escapedIDsAreLeftToTheEncoder() {
        for text in ["a\"b", "a\\b", "tab\there", "caf\u{E9}", "\u{7F}", "line\n"] {
            #expect(codec.plainResponse(id: .string(text), result: NullResult()) == nil, "\(text)")
        }
    }

    @Test("the lines a host writes read the same by hand as with the decoder", arguments: [
        #"{"id":2,"jsonrpc":"2.0","method":"status","params":{}}"#,
        #"{"id":2,"jsonrpc":"2.0","method":"status"}"#,
        #"{"jsonrpc":"2.0","id":"call-3","method":"passEntries","params":null}"#,
        #" { "id" : 12 , "jsonrpc" : "2.0" , "method" : "status" , "params" : { } } "#,
        "{\"id\":4,\"jsonrpc\":\"2.0\",\"method\":\"status\",\"params\":{}}\r",
        #"{"id":-5,"jsonrpc":"2.0","method":"status","params":{}}"#,
        #"{"id":6,"jsonrpc":"2.0","method":"generateAddPaymentPassRequest","params":{"identifier":"card-1","nonce":"AAE=","list":[1,true,false,null,{"a":[]}]}}"#,
        #"{"jsonrpc":"2.0","method":"exit"}"#,
        #"{"id":null,"jsonrpc":"2.0","method":"exit"}"#,
        #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":9}}"#,
        #"{"id":3,"jsonrpc":"2.0","result":[{"deviceName":"iPhone","isRemotePass":false}]}"#,
        #"{"id":"s-1","jsonrpc":"2.0","result":null}"#,
    ])
    func plainLinesAgreeWithTheDecoder(line: String) throws {
        let data = Data(line.utf8)
        let plain = try #require(codec.decodePlain(data), "read by hand")
        try expectSameAsDecoder(plain, line: data)
    }

    @Test("a line outside the plain shape is left to the decoder", arguments: [
        #"{"id":2,"jsonrpc":"2.0","method":"st\u0061tus","params":{}}"#,
        #"{"id":2,"jsonrpc":"2.0","method":"status","params":{},"extra":1}"#,
        #"{"id":2,"id":3,"jsonrpc":"2.0","method":"status"}"#,
        #"{"id":2,"jsonrpc":"1.0","method":"status"}"#,
        #"{"id":2,"method":"status"}"#,
        #"{"id":2.5,"jsonrpc":"2.0","method":"status"}"#,
        #"{"id":02,"jsonrpc":"2.0","method":"status"}"#,
        #"{"id":-0,"jsonrpc":"2.0","method":"status"}"#,
        #"{"id":1e3,"jsonrpc":"2.0","method":"status"}"#,
        #"{"id":1234567890123456789,"jsonrpc":"2.0","method":"status"}"#,
        #"{"id":true,"jsonrpc":"2.0","method":"status"}"#,
        #"{"id":2,"jsonrpc":"2.0","method":7}"#,
        #"{"id":2,"jsonrpc":"2.0","method":"status","params":{"a":1.5}}"#,
        #"{"id":2,"jsonrpc":"2.0","method":"status","params":[1,]}"#,
        #"{"id":2,"jsonrpc":"2.0","method":"status","params":{"a":"\u00e9"}}"#,
        "{\"id\":2,\"jsonrpc\":\"2.0\",\"method\":\"status\",\"params\":{\"a\":\"caf\u{E9}\"}}",
        #"{"id":2,"jsonrpc":"2.0","method":"status","result":1}"#,
        #"{"id":2,"jsonrpc":"2.0","error":{"code":-1,"message":"no"}}"#,
        #"{"id":2,"jsonrpc":"2.0","result":1,"params":{}}"#,
        #"{"id":2,"jsonrpc":"2.0"}"#,
        #"{"jsonrpc":"2.0","result":1}"#,
        #"{"id":2,"jsonrpc":"2.0","method":"status"} x"#,
        #"{"id":2,"jsonrpc":"2.0","method":"status",}"#,
        #"{"id":2,"jsonrpc":"2.0","method":"status""#,
        #"[{"id":2,"jsonrpc":"2.0","method":"status"}]"#,
        "",
        "{}",
        #"{"id":2,"jsonrpc":"2.0","result":[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]}"#,
    ])
    func otherLinesAreLeftToTheDecoder(line: String) {
        #expect(codec.decodePlain(Data(line.utf8)) == nil)
    }

    @Test("on mutated lines the hand reader never disagrees with the decoder")
    func mutatedLinesNeverDisagree() throws {
        var generator = SeededGenerator(seed: 0x5EED_0F_F00D)
        let seeds = [
            #"{"id":12,"jsonrpc":"2.0","method":"status","params":{}}"#,
            #"{"id":"a-1","jsonrpc":"2.0","method":"passEntries","params":{"x":[1,{"y":null}],"z":"q"}}"#,
            #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":7}}"#,
            #"{"id":3,"jsonrpc":"2.0","result":{"ok":true,"list":[false,-1,"s"]}}"#,
        ]
        let alphabet = #"{}[],:" 0123456789-.eE\tnulltruefalse"idmethodparamsresultjsonrpc2.0\"#
        var readByHand = 0
        for line in mutatedLines(of: seeds, alphabet: alphabet, count: 20_000, using: &generator) {
            guard let plain = codec.decodePlain(line) else { continue }
            readByHand += 1
            try expectSameAsDecoder(plain, line: line)
        }
        #expect(readByHand > 1_000, "the mutations should leave many lines plain")
    }

    @Test("status answers the same whether its params are {}, null, absent or another object; other params are refused")
    func statusParamsThroughTheRuntime() async throws {
        let harness = RuntimeHarness()
        harness.initialize(principalClass: "WalletExtensionKitTests.CountingHandler")
        let lines = [
            #"{"id":2,"jsonrpc":"2.0","method":"status","params":{}}"#,
            #"{"id":3,"jsonrpc":"2.0","method":"status","params":null}"#,
            #"{"id":4,"jsonrpc":"2.0","method":"status"}"#,
            #"{"id":5,"jsonrpc":"2.0","method":"status","params":{"ignored":true}}"#,
        ]
        for (offset, line) in lines.enumerated() {
            harness.send(line)
            let answer = try #require(await harness.output.messages(id: .integer(2 + offset)).first)
            #expect(answer["result"]?["passEntriesAvailable"] == .bool(true), "\(line)")
        }
        harness.send(#"{"id":6,"jsonrpc":"2.0","method":"status","params":[]}"#)
        let refused = try #require(await harness.output.messages(id: .integer(6)).first)
        #expect(refused.errorCode == RPCErrorCode.invalidParams)
    }

    /// The decoder reads `line` as the same message, and empty params decode as ``NoParams``.
    private func expectSameAsDecoder(_ plain: PlainLine, line: Data) throws {
        let text = String(decoding: line, as: UTF8.self)
        let decoded: WireMessage
        do {
            decoded = try codec.decodeWithJSONDecoder(line)
        } catch {
            Issue.record("read by hand, refused by the decoder (\(error)): \(text)")
            return
        }
        #expect(Self.summary(plain.message) == Self.summary(decoded), "\(text)")
        if plain.hasEmptyParams, case .request = decoded {
            #expect(throws: Never.self, "\(text)") { try codec.params(NoParams.self, from: line) }
        }
    }

    private static func summary(_ message: WireMessage) -> String {
        switch message {
        case .request(let id, let method, let line): return "request \(id) \(method) \(line.count)"
        case .notification(let method, let line): return "notification \(method) \(line.count)"
        case .response(let id, let line): return "response \(id) \(line.count)"
        case .errorResponse(let id, let error): return "error \(String(describing: id)) \(error)"
        }
    }
}
