import Foundation
import WalletWire

/// Reads the `initialize` reply: the result, or the sentence that says why the launch failed.
enum HandshakeOutcome {
    /// What a failed handshake's error message starts with, unless it is a version mismatch.
    static let prefix = "handshake failed: "

    /// The reason alone, for the `handshakeFailed` event (whose sentence says "handshake failed").
    static func reason(_ error: ExtensionCallError) -> String {
        error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message
    }

    /// The handshake's result from the `initialize` reply, read from the result the session
    /// decoded (``CallReply/initialize``); the line is decoded here only when it was not.
    static func interpret(_ reply: CallReply, executable: String) -> Result<InitializeResult, ExtensionCallError> {
        reply.outcome.flatMap { line in
            do {
                let result = try (reply.initialize ?? Result { try WireCodec().result(InitializeResult.self, from: line) }).get()
                guard result.protocolVersion == WireProtocol.version else {
                    return .failure(ExtensionCallError(.launchFailed, code: RPCErrorCode.unsupportedProtocolVersion,
                                                       message: "\(executable) speaks protocol \(result.protocolVersion), the host speaks \(WireProtocol.version)"))
                }
                return .success(result)
            } catch {
                return .failure(.protocolViolation("\(executable) answered initialize with \(error)"))
            }
        }.mapError { error in
            if error.code == RPCErrorCode.unsupportedProtocolVersion, case .array(let versions)? = error.data?["supported"] {
                let supported = versions.map { value -> String in
                    if case .integer(let version) = value { return String(version) }
                    return "?"
                }
                return ExtensionCallError(.launchFailed, code: error.code,
                                          message: "\(executable) speaks protocol \(supported.joined(separator: ", ")), the host speaks \(WireProtocol.version)",
                                          diagnostics: error.diagnostics)
            }
            let kind: ExtensionCallError.Kind = error.kind == .extensionTerminated || error.kind == .memoryLimitExceeded
                ? error.kind : .launchFailed
            return ExtensionCallError(kind, code: error.code, message: "\(prefix)\(error.message)",
                                      diagnostics: error.diagnostics)
        }
    }
}
