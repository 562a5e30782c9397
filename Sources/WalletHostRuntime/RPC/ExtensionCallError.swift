import WalletWire

/// Why a call to an extension did not produce a result. Each case has a sentence for people;
/// `code` is the wire error code reported in `--json` output.
public struct ExtensionCallError: Error, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable, Codable {
        /// The deadline passed before the extension completed.
        case deadlineExceeded
        /// The extension process ended (crash, exit) during the call.
        case extensionTerminated
        /// The extension was killed for exceeding its memory limit.
        case memoryLimitExceeded
        /// The executable could not be started or the handshake failed.
        case launchFailed
        /// The extension broke the wire protocol (bad frame, bad result shape, ...).
        case protocolViolation
        /// The response to the call had a readable id but an unusable body (an `error` of the
        /// wrong shape, a result nested past the parser's limit).
        case invalidResponse
        /// The extension answered with a JSON-RPC error.
        case extensionError
        /// The extension does not implement the method (it did not list it in `initialize`).
        case notImplemented
        /// The caller cancelled the call (a daemon client's `$/cancelRequest`, a cancelled task).
        case cancelled
    }

    public var kind: Kind
    /// A JSON-RPC error code: the extension's own, or one of the host-side codes.
    public var code: Int
    public var message: String
    /// The `data` of the extension's error response, when it sent one.
    public var data: JSONValue?
    /// What else the host saw during the call (non-protocol lines on fd 4, stderr, exit, footprint).
    public var diagnostics: CallDiagnostics

    public init(_ kind: Kind, code: Int, message: String, data: JSONValue? = nil, diagnostics: CallDiagnostics = CallDiagnostics()) {
        self.kind = kind
        self.code = code
        self.message = message
        self.data = data
        self.diagnostics = diagnostics
    }

    public var description: String { message }

    static func protocolViolation(_ message: String) -> ExtensionCallError {
        ExtensionCallError(.protocolViolation, code: RPCErrorCode.protocolViolation, message: message)
    }
}

/// How an extension process ended and what the host concluded.
public struct ExtensionExit: Sendable, CustomStringConvertible {
    public enum Cause: Sendable, Equatable {
        /// It exited or was killed on its own (crash, `exit`, signal from elsewhere).
        case ended
        /// It exceeded its memory limit (the rlimit made an allocation fail, or sampling saw it).
        case memoryLimit(footprintBytes: Int?)
        /// The host stopped it (idle, shutdown, hung, beyond repair).
        case stoppedByHost(reason: StopReason)
    }

    public var status: TerminationStatus
    public var cause: Cause
    /// The executable's file name, used in the kernel-style memory message.
    public var executableName: String
    public var pid: Int32
    public var memoryLimitDescription: String
    /// The last lines the process wrote to stderr, oldest first.
    public var stderrTail: [String]
    /// For a memory death the host saw: everything the extension ran, counted when it was killed.
    public var memoryUsage: MemoryUsage?

    /// The sentence a person reads; for memory deaths, in the kernel's words.
    public var description: String {
        switch cause {
        case .memoryLimit:
            let counted = memoryUsage.map { ": \($0.description)" } ?? ""
            return "EXC_RESOURCE -> \(executableName)[\(pid)] exceeded mem limit: ActiveHard \(memoryLimitDescription) (fatal)\(counted)"
        case .stoppedByHost(let reason):
            return "\(executableName)[\(pid)] was stopped by the host (\(reason)); it \(status.sentence)"
        case .ended:
            return "\(executableName)[\(pid)] \(status.sentence)"
        }
    }

    /// The stderr line that best says why the process died: the last line that reads like a
    /// crash message, by priority (`Fatal error`, `panic`, `...Error:`, an exception, an
    /// assertion, `Aborted`), backtrace frames aside; else the last line. A runtime's
    /// backtrace follows its message, so the last line alone is rarely the reason.
    public var telltaleStderrLine: String? {
        let lines = stderrTail.filter { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            // "3    libswiftCore.so    0x00007f... symbol + 221" is a frame, not a message.
            let isFrame = trimmed.first?.isNumber == true && trimmed.contains(" 0x")
            return !trimmed.isEmpty && !isFrame
        }
        for marker in ["fatal error", "panic", "error:", "exception", "assertion", "segmentation fault", "aborted"] {
            if let line = lines.last(where: { $0.lowercased().contains(marker) }) { return line }
        }
        return lines.last
    }

    public var isMemoryDeath: Bool {
        if case .memoryLimit = cause { return true }
        return false
    }
}
