import WalletWire

extension DaemonAPI {
    /// `extension.call`'s params, as a client sends them (the daemon reads them as its own
    /// `ExtensionCallMethod.Params`, with a plain-JSON fast path).
    public struct ExtensionCallParams: Codable, Sendable {
        /// The `.appex` path.
        public var appex: String
        /// The extension's method (`status`).
        public var method: String
        /// The method's params; absent for none.
        public var params: JSONValue?
        /// This call's deadline in milliseconds, instead of the daemon's for the method.
        public var deadlineMs: Double?
        /// Also answer the human transcript `wallet-host call` prints.
        public var transcript: Bool?
        /// Answer the outcome as typed members (``CallOutcomeRecord``) in place of the report,
        /// for a client that renders the report itself.
        public var outcome: Bool?
        /// True when the client answers a UI extension's `ui.prompt` and `ui.biometric` requests
        /// (as `wallet.addCard`'s client does); the call then runs on a process of its own.
        public var userAgent: Bool?

        /// Creates the params of one call.
        public init(appex: String, method: String, params: JSONValue? = nil, deadlineMs: Double? = nil, transcript: Bool? = nil,
                    outcome: Bool? = nil, userAgent: Bool? = nil) {
            self.appex = appex
            self.method = method
            self.params = params
            self.deadlineMs = deadlineMs
            self.transcript = transcript
            self.outcome = outcome
            self.userAgent = userAgent
        }
    }

    /// What `extension.call` answers: the report `wallet-host call --json` prints (or, when the
    /// params asked for it, the outcome as typed members), the transcript it prints without
    /// `--json` (when asked), and whether the call succeeded.
    public struct ExtensionCallAnswer: Codable, Sendable {
        /// The report, as `CallReport.json` writes it; absent when the params asked for ``outcome``.
        public var report: JSONValue?
        /// The outcome as typed members, when the params asked for it (`outcome: true`).
        public var outcome: CallOutcomeRecord?
        /// The human transcript, when the params asked for it.
        public var transcript: String?
        /// Whether the call succeeded (the command's exit status 0).
        public var succeeded: Bool
    }

    /// `conform.report`'s params: one extension's conformance report as `conform` prints it.
    public struct ConformReportText: Codable, Sendable {
        /// The report's text.
        public var text: String
    }
}
