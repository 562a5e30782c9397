import Foundation
import Testing
import WalletTestSupport
import WalletWire

/// The hand reader of flat params and results (``WireCodec/plainParams(from:)``,
/// ``WireCodec/plainResult(_:from:)``) must be invisible: what it reads is what `JSONDecoder`
/// reads, and whatever it is not sure of it leaves to `JSONDecoder`.
@Suite("Plain params and results")
struct PlainObjectTests {
    let codec = WireCodec()

    /// What `JSONDecoder` itself reads as the result of `line` (``WireCodec/result(_:from:)``
    /// tries the hand reader first, so it cannot be the reference).
    private func decodedResult<Result: Decodable>(_ type: Result.Type, from line: Data) throws -> Result {
        try JSONDecoder().decode(ResultBody<Result>.self, from: line).result
    }

    /// What the decoder reads for the same params, as plain scalars (nil: not a flat object).
    private func decodedParams(_ line: Data) -> [String: PlainScalar]? {
        guard let object = try? codec.params([String: JSONValue].self, from: line) else { return nil }
        var members: [String: PlainScalar] = [:]
        for (key, value) in object {
            switch value {
            case .string(let text): members[key] = .string(text)
            case .integer(let number): members[key] = .integer(number)
            case .bool(let flag): members[key] = .bool(flag)
            case .null: members[key] = .null
            case .object(let inner) where inner.isEmpty: members[key] = .emptyObject
            default: return nil
            }
        }
        return members
    }

    @Test("flat params read by hand are the decoder's", arguments: [
        #"{"id":1,"jsonrpc":"2.0","method":"extension.call","params":{"appex":"/a/B.appex","method":"status"}}"#,
        #"{"jsonrpc":"2.0","id":"x","method":"m","params":{"n":-12,"t":true,"f":false,"z":null,"e":{ }}}"#,
        #" { "method" : "m" , "id" : 3 , "jsonrpc" : "2.0" , "params" : { "a" : "b" } } "#,
        #"{"id":1,"jsonrpc":"2.0","method":"m"}"#,
        #"{"id":1,"jsonrpc":"2.0","method":"m","params":null}"#,
        #"{"id":1,"jsonrpc":"2.0","method":"m","params":{}}"#,
    ])
    func flatParamsAgree(line: String) throws {
        let data = Data(line.utf8)
        let plain = try #require(codec.plainParams(from: data))
        #expect(plain == (decodedParams(data) ?? [:]))
    }

    @Test("anything else is left to the decoder", arguments: [
        #"{"id":1,"jsonrpc":"2.0","method":"m","params":{"nested":{"a":1}}}"#,
        #"{"id":1,"jsonrpc":"2.0","method":"m","params":{"list":[]}}"#,
        #"{"id":1,"jsonrpc":"2.0","method":"m","params":{"a":1,"a":2}}"#,
        #"{"id":1,"jsonrpc":"2.0","method":"m","params":{"fraction":1.5}}"#,
        #"{"id":1,"jsonrpc":"2.0","method":"m","params":{"escaped":"a\/b"}}"#,
        #"{"id":1,"jsonrpc":"2.0","method":"m","params":{"accent":"é"}}"#,
        #"{"id":1,"jsonrpc":"2.0","method":"m","params":[1,2]}"#,
        #"{"id":1,"jsonrpc":"2.0","method":"m","params":"text"}"#,
        #"{"id":1,"jsonrpc":"2.0","result":{"a":1}}"#,
        #"{"id":1,"jsonrpc":"2.0","method":"m","params":{"a":-0}}"#,
        #"{"id":1,"jsonrpc":"2.0","method":"m","params":{"a":1}"#,
    ])
    func otherParamsAreLeftToTheDecoder(line: String) {
        #expect(codec.plainParams(from: Data(line.utf8)) == nil)
    }

    @Test("a status result read by hand is the decoder's; a missing or mistyped member is the decoder's to report")
    func statusResults() throws {
        for bits in 0..<8 {
            let members = #""passEntriesAvailable":\#(bits & 1 != 0),"remotePassEntriesAvailable":\#(bits & 2 != 0),"#
                + #""requiresAuthentication":\#(bits & 4 != 0),"extra":"kept out""#
            let line = Data(#"{"id":4,"jsonrpc":"2.0","result":{\#(members)}}"#.utf8)
            let plain = try #require(codec.plainResult(StatusResult.self, from: line))
            #expect(plain == (try decodedResult(StatusResult.self, from: line)))
        }
        for line in [
            #"{"id":4,"jsonrpc":"2.0","result":{"passEntriesAvailable":true,"remotePassEntriesAvailable":false}}"#,
            #"{"id":4,"jsonrpc":"2.0","result":{"passEntriesAvailable":1,"remotePassEntriesAvailable":false,"requiresAuthentication":false}}"#,
            #"{"id":4,"jsonrpc":"2.0","result":null}"#,
            #"{"id":4,"jsonrpc":"2.0","method":"status","params":{"passEntriesAvailable":true}}"#,
            // The decoder reads "result"; params after it must not be taken for it.
            #"{"id":4,"jsonrpc":"2.0","result":{"passEntriesAvailable":true,"remotePassEntriesAvailable":true,"requiresAuthentication":true},"#
                + #""params":{"passEntriesAvailable":false,"remotePassEntriesAvailable":false,"requiresAuthentication":false}}"#,
        ] {
            #expect(codec.plainResult(StatusResult.self, from: Data(line.utf8)) == nil, "\(line)")
        }
        // A type that does not read itself by hand always goes to the decoder.
        #expect(codec.plainResult([String: Bool].self, from: Data(#"{"id":1,"jsonrpc":"2.0","result":{"a":true}}"#.utf8)) == nil)
    }

    @Test("on mutated lines the hand reader never disagrees with the decoder")
    func mutatedLinesNeverDisagree() throws {
        var generator = SeededGenerator(seed: 0xF1A7_0B1E)
        let seeds = [
            #"{"id":12,"jsonrpc":"2.0","method":"extension.call","params":{"appex":"/x/y.appex","method":"status","deadlineMs":100}}"#,
            #"{"id":"a","jsonrpc":"2.0","method":"m","params":{"t":true,"n":null,"e":{},"i":-7}}"#,
            #"{"id":3,"jsonrpc":"2.0","result":{"passEntriesAvailable":true,"remotePassEntriesAvailable":false,"requiresAuthentication":true}}"#,
        ]
        let alphabet = #"{}[],:" 0123456789-.eE\tnulltruefalse"idmethodparamsresultjsonrpc2.0\"#
        var readByHand = 0
        for line in mutatedLines(of: seeds, alphabet: alphabet, count: 20_000, using: &generator) {
            if let plain = codec.plainParams(from: line) {
                readByHand += 1
                #expect(plain == (decodedParams(line) ?? [:]), "\(String(decoding: line, as: UTF8.self))")
            }
            if let status = codec.plainResult(StatusResult.self, from: line) {
                readByHand += 1
                #expect(status == (try? decodedResult(StatusResult.self, from: line)), "\(String(decoding: line, as: UTF8.self))")
            }
        }
        #expect(readByHand > 1_000, "the mutations should leave many lines plain")
    }
}

private struct ResultBody<Result: Decodable>: Decodable {
    var result: Result
}
