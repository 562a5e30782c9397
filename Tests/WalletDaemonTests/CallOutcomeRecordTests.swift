import Foundation
import Testing
import Wallet
import WalletDaemon
import WalletHostRuntime
import WalletWire

/// `extension.call`'s typed outcome (`outcome: true`) survives the wire: the report a client
/// renders from it is the one the daemon would have rendered from the outcome itself.
struct CallOutcomeRecordTests {
    static func roundTrip(_ outcome: CallOutcome<any Encodable & Sendable>) throws -> CallOutcome<any Encodable & Sendable> {
        let record = DaemonAPI.CallOutcomeRecord(outcome, executable: "TestHelperExt", lateNote: nil, verification: nil,
                                                 network: [], artDirectory: nil)
        return try JSONDecoder().decode(DaemonAPI.CallOutcomeRecord.self, from: JSONEncoder().encode(record)).outcome
    }

    @Test func aFailureWithDiagnosticsRendersAsBeforeTheWire() throws {
        let diagnostics = CallDiagnostics(protocolViolations: [ProtocolViolation(.notJSON, detail: "not valid JSON", excerpt: "garbage")],
                                          stderrTail: ["fatal: boom"], termination: .signaled(11), peakFootprintBytes: 3_145_728)
        let error = ExtensionCallError(.extensionTerminated, code: -32001, message: "TestHelperExt crashed", data: .object(["why": .string("x")]),
                                       diagnostics: diagnostics)
        let outcome = CallOutcome<any Encodable & Sendable>(
            method: "status", result: .failure(error), launchMilliseconds: 6.7123, launchedProcess: true, callMilliseconds: 0.5714,
            totalMilliseconds: 7.4, peakFootprintBytes: 3_145_728, pid: 4243, sandboxed: false, unsandboxedReason: "--sandbox off",
            deadline: .milliseconds(100))
        let back = try Self.roundTrip(outcome)
        #expect(CallReport.json(back, deadline: back.deadline, lateNote: nil, sandboxed: back.sandboxed)
                    == CallReport.json(outcome, deadline: outcome.deadline, lateNote: nil, sandboxed: outcome.sandboxed))
        #expect(CallReport.human(back, executable: "TestHelperExt", deadline: back.deadline, lateNote: nil)
                    == CallReport.human(outcome, executable: "TestHelperExt", deadline: outcome.deadline, lateNote: nil))
        #expect(SandboxSummary.note(back) == SandboxSummary.note(outcome))
        guard case .failure(let decoded) = back.result else { Issue.record("not a failure"); return }
        #expect(decoded.diagnostics == diagnostics)
        #expect(decoded.data == error.data)
    }

    @Test func aTypedResultRendersAsItsJSON() throws {
        let result = StatusResult(passEntriesAvailable: true, remotePassEntriesAvailable: false, requiresAuthentication: true)
        let outcome = CallOutcome<any Encodable & Sendable>(
            method: "status", result: .success(result), launchMilliseconds: nil, launchedProcess: false, callMilliseconds: 0.3,
            totalMilliseconds: 0.31, peakFootprintBytes: nil, pid: 7, sandboxed: true)
        let back = try Self.roundTrip(outcome)
        #expect(CallReport.json(back, deadline: nil, lateNote: nil, sandboxed: true)
                    == CallReport.json(outcome, deadline: nil, lateNote: nil, sandboxed: true))
        #expect(CallReport.human(back, executable: "X", deadline: nil, lateNote: nil)
                    == CallReport.human(outcome, executable: "X", deadline: nil, lateNote: nil))
    }
}
