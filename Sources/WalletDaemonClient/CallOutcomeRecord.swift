import Foundation
import Wallet
import WalletHostRuntime
import WalletWire

extension DaemonAPI {
    /// `extension.call`'s answer to `outcome: true`: the call's outcome as typed members, with
    /// what a client needs to render the report itself as `wallet-host call` does in process
    /// (the command renders both routes with the same code). Milliseconds are not rounded here:
    /// the renderer rounds them as the report does.
    public struct CallOutcomeRecord: Codable, Sendable {
        /// An error's kind, code, message and `data`, and what else the host saw during the call.
        public struct Failure: Codable, Sendable {
            /// What went wrong (`deadlineExceeded`, `extensionError`, ...).
            public var kind: ExtensionCallError.Kind
            /// The JSON-RPC error code: the extension's own, or one of the host's.
            public var code: Int
            /// The error's sentence, as the report prints it.
            public var message: String
            /// The `data` of the extension's error response, when it sent one.
            public var data: JSONValue?
            /// Lines on fd 4 that were not protocol, during the call.
            public var protocolViolations: [ProtocolViolation]
            /// The last lines the process wrote to stderr during the call.
            public var stderrTail: [String]
            /// The exit status, when the process exited during the call.
            public var exitCode: Int32?
            /// The signal number, when the process was killed during the call.
            public var signal: Int32?
            /// The highest footprint sampled during the call.
            public var peakFootprintBytes: Int?
        }

        /// The method called.
        public var method: String
        /// The result as JSON, when the call succeeded.
        public var result: JSONValue?
        /// How the call failed, when it did.
        public var failure: Failure?
        /// Spawn and handshake, when this call launched the process and the handshake finished.
        public var launchMs: Double?
        /// Whether this call found no warm process and launched one.
        public var launchedProcess: Bool
        /// From writing the request to the response (or the failure).
        public var callMs: Double
        /// From the ask to the outcome: what the deadline is measured against.
        public var totalMs: Double
        /// The highest footprint sampled during the call.
        public var peakFootprintBytes: Int?
        /// The process that took the call.
        public var pid: Int32?
        /// Whether that process runs in the sandbox (absent when there was none).
        public var sandboxed: Bool?
        /// Why a process meant for the sandbox runs without it.
        public var unsandboxedReason: String?
        /// The call's deadline, counted from the ask.
        public var deadlineMs: Double?
        /// The extension's executable, as the report names its process (`TestHelperExt[4243]`).
        public var executable: String
        /// How a call that missed its deadline ended, after the hang grace.
        public var lateNote: String?
        /// For `generateAddPaymentPassRequest`: what the host made of the payload.
        public var verification: PassDataVerification?
        /// The call's connections through the egress proxy (`network: …` lines).
        public var network: [String]
        /// Where the daemon's device keeps card art (`<state>/art`), for the report's art files.
        public var artDirectory: String?
        /// True when the extension (a UI one) asked the client's user agent, as the params offered
        /// (`userAgent: true`): its notes (how to answer, unused answers) are the client's to print.
        public var userAgent: Bool?

        /// The record of `outcome`, as the daemon answers it.
        public init(_ outcome: CallOutcome<any Encodable & Sendable>, executable: String, lateNote: String?,
                    verification: PassDataVerification?, network: [String], artDirectory: String?) {
            method = outcome.method
            switch outcome.result {
            case .success(let value):
                result = (try? JSONValue(encoding: value)) ?? .null
            case .failure(let error):
                let diagnostics = error.diagnostics
                var failure = Failure(kind: error.kind, code: error.code, message: error.message, data: error.data,
                                      protocolViolations: diagnostics.protocolViolations, stderrTail: diagnostics.stderrTail,
                                      peakFootprintBytes: diagnostics.peakFootprintBytes)
                switch diagnostics.termination {
                case .exited(let code)?: failure.exitCode = code
                case .signaled(let signal)?: failure.signal = signal
                case nil: break
                }
                self.failure = failure
            }
            launchMs = outcome.launchMilliseconds
            launchedProcess = outcome.launchedProcess
            callMs = outcome.callMilliseconds
            totalMs = outcome.totalMilliseconds
            peakFootprintBytes = outcome.peakFootprintBytes
            pid = outcome.pid
            sandboxed = outcome.sandboxed
            unsandboxedReason = outcome.unsandboxedReason
            deadlineMs = outcome.deadline?.milliseconds
            self.executable = executable
            self.lateNote = lateNote
            self.verification = verification
            self.network = network
            self.artDirectory = artDirectory
        }

        /// The outcome again, its result a `JSONValue` (which a report renders as the typed value it was).
        public var outcome: CallOutcome<any Encodable & Sendable> {
            let settled: Result<any Encodable & Sendable, ExtensionCallError>
            if let failure {
                var termination: TerminationStatus?
                if let code = failure.exitCode { termination = .exited(code) }
                if let signal = failure.signal { termination = .signaled(signal) }
                let diagnostics = CallDiagnostics(protocolViolations: failure.protocolViolations, stderrTail: failure.stderrTail,
                                                  termination: termination, peakFootprintBytes: failure.peakFootprintBytes)
                settled = .failure(ExtensionCallError(failure.kind, code: failure.code, message: failure.message, data: failure.data,
                                                      diagnostics: diagnostics))
            } else {
                settled = .success(result ?? .null)
            }
            return CallOutcome(method: method, result: settled, launchMilliseconds: launchMs, launchedProcess: launchedProcess,
                               callMilliseconds: callMs, totalMilliseconds: totalMs, peakFootprintBytes: peakFootprintBytes, pid: pid,
                               sandboxed: sandboxed, unsandboxedReason: unsandboxedReason,
                               deadline: deadlineMs.flatMap(DurationText.milliseconds))
        }
    }
}
