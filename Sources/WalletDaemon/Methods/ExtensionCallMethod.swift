import Foundation
import WalletHostRuntime
import WalletWire

/// `extension.call`, the client API's one call: the daemon's warm process for the `.appex`
/// runs it, and the answer is the report `wallet-host call --json` prints (plus, when asked,
/// the human transcript), so a call through the daemon prints what an in-process one does.
enum ExtensionCallMethod {
    struct Params: Codable, Sendable {
        var appex: String
        var method: String
        var params: JSONValue?
        /// This call's deadline in milliseconds, instead of the daemon's for the method.
        var deadlineMs: Double?
        /// Also answer the human transcript.
        var transcript: Bool?
    }

    struct Answer<Report: Encodable & Sendable>: Encodable, Sendable {
        var report: Report
        var transcript: String?
        var succeeded: Bool
    }

    static func register(on server: DaemonServer) {
        let pool = server.pool
        let hub = server.hub
        server.register("extension.call") { call in
            let params = try call.params(Params.self)
            let deadline = try params.deadlineMs.map { milliseconds throws(RPCErrorObject) in
                guard let deadline = DurationText.milliseconds(milliseconds) else {
                    throw RPCErrorObject(code: RPCErrorCode.invalidParams, message: "invalid params for extension.call: deadlineMs "
                                         + "\(milliseconds) is not a duration from 0 to \(DurationText.maximumText)")
                }
                return deadline
            }
            let runner = try await pool.runner(forAppex: URL(fileURLWithPath: params.appex))
            let from = hub.nextSequence
            let outcome = await MethodResultShape.call(runner, method: params.method, params: params.params ?? .object([:]),
                                                       deadline: deadline)
            var lateNote: String?
            if case .failure(let error) = outcome.result, error.kind == .deadlineExceeded, let pid = outcome.pid {
                // The hang verdict comes at the end of the grace: wait a little past it.
                let event = await hub.firstEvent(from: from, within: runner.configuration.hangGrace + .milliseconds(200)) {
                    $0.pid == pid && CallReport.endsTheWait($0)
                }
                lateNote = CallReport.lateNote(event)
            }
            let shownDeadline = deadline ?? runner.configuration.deadline(for: params.method, at: runner.descriptor.point)
            let succeeded: Bool
            if case .failure = outcome.result { succeeded = false } else { succeeded = true }
            var transcript: String?
            if params.transcript == true {
                transcript = CallReport.human(outcome, executable: runner.descriptor.executableName, deadline: shownDeadline,
                                              lateNote: lateNote)
                if let note = SandboxSummary.note(outcome) { transcript! += "\n" + note }
            }
            return Answer(report: CallReport.object(outcome, deadline: shownDeadline, lateNote: lateNote, sandboxed: outcome.sandboxed),
                          transcript: transcript, succeeded: succeeded)
        }
    }
}
