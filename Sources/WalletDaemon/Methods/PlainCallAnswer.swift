import Wallet
import WalletHostRuntime
import WalletWire

/// `extension.call`'s answer to a call that succeeded, written by hand: the very bytes
/// `JSONEncoder` writes for ``ExtensionCallMethod`` `Answer` (sorted keys, slashes unescaped).
/// On the warm path `JSONEncoder` was a tenth of the daemon's time per call.
///
/// Only the plain shape is written here: a success whose result writes itself
/// (``PlainJSONEncodable``), strings that need no escaping, numbers the encoder writes in
/// their shortest decimal form, no transcript and no payload verification. Anything else
/// gives nil and goes through `JSONEncoder`.
struct PlainCallAnswer: PlainJSONEncodable {
    /// The answer's JSON (the JSON-RPC `result`).
    private let json: [UInt8]
    /// Makes what `JSONEncoder` gets if it is asked to encode this answer after all (a string or
    /// decimal id that the hand-written response line does not take).
    private let encodable: @Sendable () -> any Encodable & Sendable

    /// - Parameter encodable: makes the same answer, for `JSONEncoder`.
    init?(_ outcome: CallOutcome<any Encodable & Sendable>, deadlineMilliseconds: Double?,
          encodable: @escaping @Sendable () -> any Encodable & Sendable) {
        guard case .success(let value) = outcome.result, let result = value as? any PlainJSONEncodable,
              WireCodec.isPlainJSONString(outcome.method) else { return nil }
        var json: [UInt8] = []
        json.reserveCapacity(320)
        // callMs, deadlineMs, launchMs, launchedProcess, method, peakFootprintBytes, pid, result, sandboxed, totalMs
        json.append(contentsOf: #"{"report":{"callMs":"#.utf8)
        guard Self.append(outcome.callMilliseconds, to: &json) else { return nil }
        if let deadlineMilliseconds {
            json.append(contentsOf: #","deadlineMs":"#.utf8)
            guard Self.append(deadlineMilliseconds, to: &json) else { return nil }
        }
        json.append(contentsOf: #","launchMs":"#.utf8)
        if let launch = outcome.launchMilliseconds {
            guard Self.append(launch, to: &json) else { return nil }
        } else {
            json.append(contentsOf: "null".utf8)
        }
        json.append(contentsOf: #","launchedProcess":"#.utf8)
        json.append(contentsOf: (outcome.launchedProcess ? "true" : "false").utf8)
        json.append(contentsOf: #","method":""#.utf8)
        json.append(contentsOf: outcome.method.utf8)
        json.append(contentsOf: #"","peakFootprintBytes":"#.utf8)
        json.append(contentsOf: (outcome.peakFootprintBytes.map { String($0) } ?? "null").utf8)
        json.append(contentsOf: #","pid":"#.utf8)
        json.append(contentsOf: (outcome.pid.map { String($0) } ?? "null").utf8)
        json.append(contentsOf: #","result":"#.utf8)
        result.appendPlainJSON(to: &json)
        json.append(contentsOf: #","sandboxed":"#.utf8)
        json.append(contentsOf: (outcome.sandboxed.map { $0 ? "true" : "false" } ?? "null").utf8)
        json.append(contentsOf: #","totalMs":"#.utf8)
        guard Self.append(outcome.totalMilliseconds, to: &json) else { return nil }
        json.append(contentsOf: #"},"succeeded":true}"#.utf8)
        self.json = json
        self.encodable = encodable
    }

    /// A report's milliseconds, rounded as ``CallReport`` rounds them (to the microsecond).
    private static func append(_ milliseconds: Double, to json: inout [UInt8]) -> Bool {
        guard let text = WireCodec.plainJSONNumber(CallReport.rounded(milliseconds)) else { return false }
        json.append(contentsOf: text.utf8)
        return true
    }

    func appendPlainJSON(to line: inout [UInt8]) {
        line.append(contentsOf: json)
    }

    func encode(to encoder: any Encoder) throws {
        try encodable().encode(to: encoder)
    }
}
