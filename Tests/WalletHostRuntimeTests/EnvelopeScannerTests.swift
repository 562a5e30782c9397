import Foundation
import Testing
@testable import WalletHostRuntime
import WalletWire

/// What the host learns from a line the JSON-RPC decoder rejected: whether it was a request
/// (answer it) or a response (never answer it; fail its call at once).
@Suite("EnvelopeScanner and violation excerpts")
struct EnvelopeScannerTests {
    @Test("a response with an error of the wrong shape keeps its id and is not a request",
          arguments: [#"{"jsonrpc":"2.0","id":7,"error":"failed"}"#, #"{ "error" : [1,2] , "id" : 7 , "jsonrpc":"2.0" }"#])
    func wrongShapeResponse(line: String) {
        let findings = EnvelopeScanner.scan(Data(line.utf8))
        #expect(findings == .init(id: .number(7), hasMethod: false, complete: true))
    }

    @Test("a result nested past any parser's depth still yields its id, without recursion")
    func deepNesting() {
        let depth = 200_000
        let line = #"{"jsonrpc":"2.0","id":"call-1","result":"# + String(repeating: "[", count: depth)
            + String(repeating: "]", count: depth) + "}"
        let findings = EnvelopeScanner.scan(Data(line.utf8))
        #expect(findings == .init(id: .string("call-1"), hasMethod: false, complete: true))
        #expect(throws: WireDecodingError.self) { _ = try WireCodec().decode(Data(line.utf8)) }
    }

    @Test("a request is recognised by its method, wherever the keys are")
    func request() {
        let findings = EnvelopeScanner.scan(Data(#"{"params":{"id":3,"method":"x"},"id":4,"method":"watch.isPaired"}"#.utf8))
        #expect(findings == .init(id: .number(4), hasMethod: true, complete: true))
    }

    @Test("strings with escaped quotes and braces do not confuse the scan")
    func escapedStrings() {
        let findings = EnvelopeScanner.scan(Data(#"{"result":"a \"}\" {","id":12}"#.utf8))
        #expect(findings == .init(id: .number(12), hasMethod: false, complete: true))
    }

    @Test("truncated or non-object lines are incomplete", arguments: [
        #"{"jsonrpc":"2.0","id":1,"res"#, "garbage", "[1,2]", "", #"{"id":1"#, #"{"id":1} trailing"#,
    ])
    func incomplete(line: String) {
        #expect(!EnvelopeScanner.scan(Data(line.utf8)).complete)
    }

    @Test("an id that is neither an integer nor a string is not an id")
    func oddIDs() {
        #expect(EnvelopeScanner.scan(Data(#"{"id":1.5,"result":1}"#.utf8)).id == nil)
        #expect(EnvelopeScanner.scan(Data(#"{"id":{"a":1},"result":1}"#.utf8)).id == nil)
        #expect(EnvelopeScanner.scan(Data(#"{"id":-3,"result":1}"#.utf8)).id == .number(-3))
    }

    @Test("excerpts escape control bytes and invalid UTF-8, keep valid UTF-8, and say when they cut")
    func excerpts() {
        #expect(ProtocolViolation.excerpt(Data("garbage\t\"x\"".utf8)) == #"garbage\t"x""#)
        #expect(ProtocolViolation.excerpt(Data([0x66, 0xFF, 0x00, 0x41])) == #"f\xFF\x00A"#)
        #expect(ProtocolViolation.excerpt(Data("čárka".utf8)) == "čárka")
        let long = ProtocolViolation.excerpt(Data(String(repeating: "a", count: 100).utf8), limit: 10)
        #expect(long == "aaaaaaaaaa... (100 bytes)")
    }
}
