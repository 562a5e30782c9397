import FoundationEssentials
import PassKit
import WalletExtensionRuntime
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
    /// single-shot guard (so it can answer twice, or after cancellation). A call still
    /// running counts as answered afterwards.
    /// - Parameter resultJSON: The `result` member, as raw JSON text (it may have any shape).
    public static func sendResponse(for handler: PKIssuerProvisioningExtensionHandler, resultJSON: String) {
        guard let responder = responder(of: handler) else { return }
        responder.writeBypassingSingleShotGuard {
            writeRawLine("{\"id\":\(jsonText(of: responder.id)),\"jsonrpc\":\"2.0\",\"result\":\(resultJSON)}")
        }
    }

    /// Lets every completion of the call `handler` is serving reach the wire: a second
    /// completion is sent again, and a completion after `$/cancelRequest` is sent too.
    public static func disableSingleShotGuard(for handler: PKIssuerProvisioningExtensionHandler) {
        responder(of: handler)?.singleShotGuardDisabled.store(true, ordering: .relaxed)
    }

    /// When false, the extension ignores the `exit` notification and end of input on fd 3,
    /// so that the host has to escalate to signals. True by default; may be set before
    /// `WalletExtension.main`.
    public static var exitsWhenHostAsks: Bool {
        get { ExtensionRuntime.exitsWhenHostAsks.load(ordering: .relaxed) }
        set { ExtensionRuntime.exitsWhenHostAsks.store(newValue, ordering: .relaxed) }
    }

    private static var runtime: ExtensionRuntime? {
        ExtensionRuntime.current.withLock { $0 }
    }

    private static func responder(of handler: PKIssuerProvisioningExtensionHandler) -> RequestResponder? {
        guard let responder = handler.invocation.responder else {
            Diagnostics.log("testing: \(type(of: handler)) instance serves no call")
            return nil
        }
        return responder
    }

    private static func jsonText(of id: RequestID) -> String {
        switch id {
        case .number(let number):
            return String(number)
        case .string(let string):
            let encoded = try? JSONEncoder().encode(string)
            return encoded.map { String(decoding: $0, as: UTF8.self) } ?? "null"
        case .decimal(let decimal):
            return decimal.description
        }
    }
}
