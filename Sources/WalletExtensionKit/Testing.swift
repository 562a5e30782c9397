import FoundationEssentials
import WalletWire

/// Hooks for misbehaving test extensions (`TestHelperExt`). Not for real extensions: they
/// break the protocol on purpose.
///
/// ```swift
/// @_spi(Testing) import WalletExtensionKit
/// ```
@_spi(Testing)
public enum WalletExtensionTesting {
    /// Writes bytes to fd 4 exactly as given (no newline added), without interleaving with
    /// messages other threads are writing.
    public static func writeRaw(_ bytes: Data) {
        runtime?.writer.sendRaw(bytes)
    }

    /// Writes `line` and a newline to fd 4, whatever it contains.
    public static func writeRawLine(_ line: String) {
        writeRaw(Data((line + "\n").utf8))
    }

    /// Sends a success response for the call `handler` is serving, bypassing the
    /// single-shot guard (so it can answer twice, or after cancellation).
    /// - Parameter resultJSON: The `result` member, as raw JSON text (it may have any shape).
    public static func sendResponse(for handler: PKIssuerProvisioningExtensionHandler, resultJSON: String) {
        guard let id = handler.invocation.responder?.id else {
            Diagnostics.log("testing: sendResponse for a handler that serves no call")
            return
        }
        sendRawResponse(id: id, resultJSON: resultJSON)
    }

    /// Sends a success response for the call `handler` is serving, bypassing the
    /// single-shot guard, with `result` encoded as the SDK would.
    public static func sendResponse(for handler: PKIssuerProvisioningExtensionHandler,
                                    result: some Encodable & Sendable) {
        guard let responder = handler.invocation.responder else {
            Diagnostics.log("testing: sendResponse for a handler that serves no call")
            return
        }
        responder.deliverBypassingSingleShotGuard(.result(result))
    }

    /// The wire id of the call `handler` is serving, as JSON text (`7` or `"abc"`).
    public static func requestIDJSON(of handler: PKIssuerProvisioningExtensionHandler) -> String? {
        handler.invocation.responder.map { jsonText(of: $0.id) }
    }

    /// When false, the extension ignores the `exit` notification, end of input on fd 3 and a
    /// broken fd 4, so that the host has to escalate to signals. True by default.
    public static var exitsWhenHostAsks: Bool {
        get { runtime?.exitsWhenHostAsks.load(ordering: .relaxed) ?? true }
        set { runtime?.exitsWhenHostAsks.store(newValue, ordering: .relaxed) }
    }

    private static var runtime: ExtensionRuntime? {
        ExtensionRuntime.current.withLock { $0 }
    }

    private static func sendRawResponse(id: RequestID, resultJSON: String) {
        writeRawLine("{\"id\":\(jsonText(of: id)),\"jsonrpc\":\"2.0\",\"result\":\(resultJSON)}")
    }

    private static func jsonText(of id: RequestID) -> String {
        switch id {
        case .number(let number):
            return String(number)
        case .string(let string):
            let encoded = try? JSONEncoder().encode(string)
            return encoded.map { String(decoding: $0, as: UTF8.self) } ?? "null"
        }
    }
}
