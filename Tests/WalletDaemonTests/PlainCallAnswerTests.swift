import Foundation
import Testing
import Wallet
@testable import WalletDaemon
import WalletHostRuntime
import WalletTestSupport
import WalletWire

/// `extension.call`'s hand-written answer is byte for byte what `JSONEncoder` writes for the
/// same answer, gives way to it outside its shape, and the warm path's path lookup agrees with
/// `URL`'s standardizing.
@Suite("Plain call answers")
struct PlainCallAnswerTests {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// What the daemon answered before: the report as ``CallReport`` builds it, through `JSONEncoder`.
    private func encoded(_ outcome: CallOutcome<any Encodable & Sendable>, deadline: Duration?) throws -> String {
        let answer = ExtensionCallMethod.Answer(report: CallReport.object(outcome, deadline: deadline, lateNote: nil, sandboxed: outcome.sandboxed),
                                                transcript: nil, succeeded: true)
        return String(decoding: try Self.encoder.encode(answer), as: UTF8.self)
    }

    private func outcome(_ result: any Encodable & Sendable, index: Int, milliseconds: Double) -> CallOutcome<any Encodable & Sendable> {
        CallOutcome(method: index % 2 == 0 ? "status" : "passEntries", result: .success(result),
                    launchMilliseconds: index % 3 == 0 ? nil : milliseconds * 3, launchedProcess: index % 3 != 0,
                    callMilliseconds: milliseconds, totalMilliseconds: milliseconds + 0.0425,
                    peakFootprintBytes: index % 4 == 0 ? nil : 1_500_000 + index, pid: index % 5 == 0 ? nil : Int32(100 + index),
                    sandboxed: [nil, true, false][index % 3])
    }

    @Test func aSucceededCallIsWhatJSONEncoderWrites() throws {
        var generator = SeededGenerator(seed: 0xCA11)
        let milliseconds: [Double] = [0, 1, 100, 0.5, 0.1234565, 99.9995, 20_000, 1e-4]
            + (0..<300).map { _ in Double.random(in: 0..<25_000, using: &generator) }
        var written = 0
        for (index, value) in milliseconds.enumerated() {
            let status = StatusResult(passEntriesAvailable: index & 1 != 0, remotePassEntriesAvailable: index & 2 != 0,
                                      requiresAuthentication: index & 4 != 0)
            let result: any Encodable & Sendable = index % 7 == 0 ? NullResult() : status
            let call = outcome(result, index: index, milliseconds: value)
            let deadline: Duration? = [nil, .milliseconds(100), .seconds(20), .microseconds(2500)][index % 4]
            guard let plain = PlainCallAnswer(call, deadlineMilliseconds: deadline?.milliseconds, encodable: { NullResult() }) else { continue }
            written += 1
            var json: [UInt8] = []
            plain.appendPlainJSON(to: &json)
            #expect(String(decoding: json, as: UTF8.self) == (try encoded(call, deadline: deadline)), "case \(index)")
        }
        #expect(written > 280, "nearly every case is plain")
    }

    @Test func aFailureOrAResultThatDoesNotWriteItselfIsLeftToJSONEncoder() {
        let failed = CallOutcome<any Encodable & Sendable>(
            method: "status", result: .failure(ExtensionCallError(.deadlineExceeded, code: -32001, message: "late")),
            launchMilliseconds: nil, launchedProcess: false, callMilliseconds: 101, totalMilliseconds: 101, peakFootprintBytes: nil, pid: 7)
        #expect(PlainCallAnswer(failed, deadlineMilliseconds: 100, encodable: { NullResult() }) == nil)
        let entries = outcome(JSONValue.array([.string("card")]), index: 1, milliseconds: 3)
        #expect(PlainCallAnswer(entries, deadlineMilliseconds: 100, encodable: { NullResult() }) == nil)
        var quoted = outcome(NullResult(), index: 1, milliseconds: 3)
        quoted.method = "say \"hi\""
        #expect(PlainCallAnswer(quoted, deadlineMilliseconds: 100, encodable: { NullResult() }) == nil)
    }

    @Test func anIDTheHandWrittenLineDoesNotTakeGetsTheSameAnswerFromJSONEncoder() throws {
        let call = outcome(StatusResult(passEntriesAvailable: true, remotePassEntriesAvailable: false, requiresAuthentication: true),
                           index: 2, milliseconds: 0.75)
        let reference = ExtensionCallMethod.Answer(report: CallReport.object(call, deadline: .milliseconds(100), lateNote: nil,
                                                                             sandboxed: call.sandboxed),
                                                   transcript: nil, succeeded: true)
        let made = PlainCallAnswer(call, deadlineMilliseconds: 100, encodable: { reference })
        let plain = try #require(made)
        for id in [RequestID.number(9), .string("plain-id"), .string("quote\"d"), .string("caf\u{E9}")] {
            let line = DaemonServer.resultLine(id: id, plain)
            #expect(line == (try DaemonServer.codec.response(id: id, result: reference)), "\(id)")
        }
    }

    @Test func extensionCallParamsReadByHandAreTheDecoders() throws {
        let codec = DaemonServer.codec
        let plainOnes = [
            #"{"appex":"/a/B.appex","method":"status"}"#,
            #"{"appex":"/a/B.appex","method":"status","params":{},"deadlineMs":250,"transcript":true}"#,
            #"{"method":"passEntries","appex":"rel/B.appex","params":null,"deadlineMs":null,"transcript":null,"other":1}"#,
        ]
        for params in plainOnes {
            let line = Data(#"{"id":1,"jsonrpc":"2.0","method":"extension.call","params":\#(params)}"#.utf8)
            let members = try #require(codec.plainParams(from: line))
            let plain = try #require(ExtensionCallMethod.Params(plainMembers: members), "\(params)")
            // JSONDecoder itself: the codec's params(_:from:) tries the hand reader first.
            struct Body: Decodable { var params: ExtensionCallMethod.Params }
            let decoded = try JSONDecoder().decode(Body.self, from: line).params
            #expect(plain.appex == decoded.appex && plain.method == decoded.method && plain.params == decoded.params
                    && plain.deadlineMs == decoded.deadlineMs && plain.transcript == decoded.transcript, "\(params)")
        }
        // Left to the decoder, which names what is wrong or reads what the hand reader does not.
        for params in [#"{"appex":1,"method":"status"}"#, #"{"method":"status"}"#, #"{"appex":"/a","method":"status","deadlineMs":true}"#,
                       #"{"appex":"/a","method":"status","transcript":"yes"}"#, #"{"appex":"/a","method":"status","params":{"k":"v"}}"#] {
            let line = Data(#"{"id":1,"jsonrpc":"2.0","method":"extension.call","params":\#(params)}"#.utf8)
            #expect(codec.plainParams(from: line).flatMap(ExtensionCallMethod.Params.init(plainMembers:)) == nil, "\(params)")
        }
    }

    @Test func aPathIsTakenAsItIsExactlyWhenStandardizingLeavesItSo() {
        let paths = ["/a/B.appex", "/", "", "a/b", "/a//b", "/a/./b", "/a/../b", "/a/b/", "/a/b/.", "/a/b/..", "/.hidden/x",
                     "/a/..b/c", "/a/b..", "/a/.../c", "/tmp/wallet host/A.app/PlugIns/S.appex", "/a/%20/b", "//a", "/a/b//"]
        for path in paths {
            let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
            if StandardPath.isStandardized(path) {
                #expect(standardized == path, "\(path) was taken as it is but standardizes to \(standardized)")
            }
        }
        #expect(StandardPath.isStandardized("/tmp/apps/Issuer.app/PlugIns/Status.appex"))
        #expect(!StandardPath.isStandardized("/tmp/apps/../apps/Issuer.app"))
        #expect(!StandardPath.isStandardized("relative/Issuer.app"))
    }
}
