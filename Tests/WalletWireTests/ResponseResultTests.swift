import Foundation
import Testing
import WalletWire

/// A response's result decoded from the range the envelope's one read found
/// (``WireCodec/result(_:from:at:)``) is what ``WireCodec/result(_:from:)`` decodes from the
/// whole line, and its errors are the same.
@Suite("Response results from the envelope's range")
struct ResponseResultTests {
    let codec = WireCodec()

    private func resultRange(of line: Data) -> Range<Int>? {
        codec.decodePlain(line)?.resultRange
    }

    @Test("the range is the result value's bytes", arguments: [
        (#"{"id":1,"jsonrpc":"2.0","result":{"a":1}}"#, #"{"a":1}"#),
        (#" { "result" : [1, 2] , "jsonrpc" : "2.0" , "id" : "x" } "#, "[1, 2]"),
        (#"{"jsonrpc":"2.0","id":7,"result":null}"#, "null"),
    ])
    func rangeIsTheValue(line: String, value: String) throws {
        let data = Data(line.utf8)
        let range = try #require(resultRange(of: data))
        #expect(String(decoding: data[range], as: UTF8.self) == value)
    }

    @Test("requests and notifications have no result range")
    func requestsHaveNone() throws {
        let request = try #require(codec.decodePlain(Data(#"{"id":1,"jsonrpc":"2.0","method":"m","params":{"a":1}}"#.utf8)))
        #expect(request.resultRange == nil)
        let notification = try #require(codec.decodePlain(Data(#"{"jsonrpc":"2.0","method":"m"}"#.utf8)))
        #expect(notification.resultRange == nil)
    }

    @Test("typed, plain and arbitrary results decode as from the whole line", arguments: [
        #"{"id":1,"jsonrpc":"2.0","result":{"passEntriesAvailable":true,"remotePassEntriesAvailable":false,"requiresAuthentication":true}}"#,
        #"{"result":{"requiresAuthentication":false,"passEntriesAvailable":false,"remotePassEntriesAvailable":true},"jsonrpc":"2.0","id":2}"#,
    ])
    func statusResults(line: String) throws {
        let data = Data(line.utf8)
        let fromRange = try codec.result(StatusResult.self, from: data, at: resultRange(of: data))
        #expect(fromRange == (try codec.result(StatusResult.self, from: data)))
        let anyValue = try codec.result(JSONValue.self, from: data, at: resultRange(of: data))
        #expect(anyValue == (try codec.result(JSONValue.self, from: data)))
    }

    @Test("a slice of a bigger buffer decodes from its own start")
    func sliceOffsets() throws {
        let whole = Data(#"xx{"id":1,"jsonrpc":"2.0","result":{"k":[1,"two",null]}}"#.utf8)
        let line = whole[2...]
        let range = try #require(resultRange(of: line))
        let value = try codec.result(JSONValue.self, from: line, at: range)
        #expect(value == .object(["k": .array([.integer(1), .string("two"), .null])]))
    }

    @Test("a result of the wrong shape fails as from the whole line")
    func wrongShape() throws {
        let data = Data(#"{"id":1,"jsonrpc":"2.0","result":{"passEntriesAvailable":"yes"}}"#.utf8)
        var fromLine: WireDecodingError?
        do { _ = try codec.result(StatusResult.self, from: data) } catch { fromLine = error }
        var fromRange: WireDecodingError?
        do { _ = try codec.result(StatusResult.self, from: data, at: resultRange(of: data)) } catch { fromRange = error }
        #expect(fromLine != nil)
        #expect(fromRange?.reason == fromLine?.reason)
        #expect(fromRange?.code == fromLine?.code)
    }
}
