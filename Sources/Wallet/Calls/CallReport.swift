import Foundation
import WalletHostRuntime
import WalletWire

/// Renders a call's outcome for people and for machines. The result is the typed value the
/// call decoded (see ``MethodResultShape``), encoded straight into the report.
public enum CallReport {
    /// The transcript `wallet-host call` prints.
    /// - Parameter artDirectory: Where card art of a `passEntries` result is written, shown as its
    ///   size and file rather than base64 (``shown(_:artDirectory:)``).
    public static func human(_ outcome: CallOutcome<any Encodable & Sendable>, executable: String, deadline: Duration?, lateNote: String?,
                             artDirectory: URL? = nil) -> String {
        var lines: [String] = []
        let process = outcome.pid.map { "\(executable)[\($0)]" } ?? executable
        switch outcome.result {
        case .success(let value):
            lines.append("\(outcome.method) -> \(process)")
            lines.append(shown(value, artDirectory: artDirectory).map(pretty) ?? pretty(value))
        case .failure(let error):
            lines.append("\(outcome.method) FAILED -> \(process)")
            lines.append("  \(error.message)")
            if let lateNote { lines.append("  \(lateNote)") }
            // The timing line below gives the peak footprint.
            let seen = error.diagnostics.lines(includingFootprint: false)
            if !seen.isEmpty {
                lines.append("  what else the host saw during the call:")
                lines += seen.map { "    \($0)" }
            }
        }
        var timing = [String]()
        if let launch = outcome.launchMilliseconds {
            timing.append("launch \(HumanReadable.milliseconds(launch))")
        } else {
            timing.append(outcome.launchedProcess ? "launch unfinished" : "warm")
        }
        timing.append("call \(HumanReadable.milliseconds(outcome.callMilliseconds))")
        var total = "total \(HumanReadable.milliseconds(outcome.totalMilliseconds))"
        if let deadline { total += " of \(HumanReadable.duration(deadline))" }
        timing.append(total)
        if let peak = outcome.peakFootprintBytes {
            // A process killed for its memory may have grown past the limit between two samples:
            // its last sample is then no peak, and "peak footprint 2.9 MB" beside "killed at
            // 55 MB" would contradict the kill.
            if case .failure(let error) = outcome.result, error.kind == .memoryLimitExceeded {
                timing.append("footprint last sampled at \(HumanReadable.megabytes(peak))")
            } else {
                timing.append("peak footprint \(HumanReadable.megabytes(peak))")
            }
        }
        lines.append(timing.joined(separator: " · "))
        return lines.joined(separator: "\n")
    }

    /// - Parameter sandboxed: whether the process ran in the sandbox (nil: none was launched).
    /// - Parameter verification: for `generateAddPaymentPassRequest`, what the host made of the payload.
    public static func json(_ outcome: CallOutcome<any Encodable & Sendable>, deadline: Duration?, lateNote: String?,
                            sandboxed: Bool? = nil, verification: PassDataVerification? = nil) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let report = object(outcome, deadline: deadline, lateNote: lateNote, sandboxed: sandboxed, verification: verification)
        return String(decoding: (try? encoder.encode(report)) ?? Data(), as: UTF8.self)
    }

    /// What `--json` prints, as a value the daemon encodes into its answer.
    public static func object(_ outcome: CallOutcome<any Encodable & Sendable>, deadline: Duration?, lateNote: String?,
                              sandboxed: Bool? = nil, verification: PassDataVerification? = nil) -> some Encodable & Sendable {
        var object: [String: JSONValue] = [
            "method": .string(outcome.method),
            "callMs": .double(rounded(outcome.callMilliseconds)),
            "totalMs": .double(rounded(outcome.totalMilliseconds)),
            "launchMs": outcome.launchMilliseconds.map { .double(rounded($0)) } ?? .null,
            "peakFootprintBytes": outcome.peakFootprintBytes.map { .integer($0) } ?? .null,
            "pid": outcome.pid.map { .integer(Int($0)) } ?? .null,
            "launchedProcess": .bool(outcome.launchedProcess),
            "sandboxed": sandboxed.map { .bool($0) } ?? .null,
        ]
        if let deadline { object["deadlineMs"] = .double(rounded(deadline.milliseconds)) }
        if let verification, let value = try? JSONValue(encoding: verification) { object["verification"] = value }
        var result: (any Encodable & Sendable)?
        switch outcome.result {
        case .success(let value):
            result = value
        case .failure(let error):
            var detail: [String: JSONValue] = ["code": .integer(error.code), "message": .string(error.message),
                                               "kind": .string(error.kind.rawValue)]
            if let lateNote { detail["late"] = .string(lateNote) }
            object["error"] = .object(detail)
            object["diagnostics"] = diagnosticsJSON(error.diagnostics)
        }
        return ReportObject(members: object, result: result)
    }

    /// `{"protocolViolations": [{"reason", "detail", "excerpt", "requestID"}], "stderrTail": [...],
    /// "exitCode" or "signal", "peakFootprintBytes"}`.
    private static func diagnosticsJSON(_ diagnostics: CallDiagnostics) -> JSONValue {
        var object: [String: JSONValue] = [
            "protocolViolations": .array(diagnostics.protocolViolations.map { violation in
                var entry: [String: JSONValue] = ["reason": .string(violation.reason.rawValue), "detail": .string(violation.detail)]
                if let excerpt = violation.excerpt { entry["excerpt"] = .string(excerpt) }
                if let id = violation.requestID { entry["requestID"] = .string(id) }
                return .object(entry)
            }),
            "stderrTail": .array(diagnostics.stderrTail.map { .string($0) }),
            "peakFootprintBytes": diagnostics.peakFootprintBytes.map { .integer($0) } ?? .null,
        ]
        switch diagnostics.termination {
        case .exited(let code)?: object["exitCode"] = .integer(Int(code))
        case .signaled?: object["signal"] = diagnostics.termination?.signalName.map { .string($0) } ?? .null
        case nil: break
        }
        return .object(object)
    }

    /// The report's members plus `result`, which is encoded as its own type (a `null` result stays `null`).
    private struct ReportObject: Encodable, Sendable {
        var members: [String: JSONValue]
        var result: (any Encodable & Sendable)?

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (name, value) in members {
                try container.encode(value, forKey: Key(stringValue: name))
            }
            if let result {
                try container.encode(result, forKey: Key(stringValue: "result"))
            }
        }
    }

    private static func pretty(_ value: any Encodable & Sendable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
    }

    /// Milliseconds as the report gives them: to the microsecond.
    package static func rounded(_ value: Double) -> Double {
        (value * 1000).rounded() / 1000
    }

    /// The events that say how a call that missed its deadline ended.
    public static let endsTheWait: @Sendable (HostEvent) -> Bool = {
        [.lateCompletion, .cancelAcknowledged, .hung, .exit].contains($0.kind)
    }

    /// What the report says of a call after its missed deadline, from the event that ended the wait.
    public static func lateNote(_ event: HostEvent?) -> String? {
        switch event?.payload {
        case .hung(let hung)?:
            return "no answer in the \(HumanReadable.milliseconds(hung.silenceMilliseconds)) after its deadline either: "
                + "the host declared it hung and stopped it"
        case .lateCompletion?, .cancelAcknowledged?:
            return event?.message
        default:
            return nil
        }
    }
}
