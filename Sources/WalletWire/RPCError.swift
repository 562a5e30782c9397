/// Error codes used on the wire: JSON-RPC 2.0's own plus the host's in -32000...-32099.
public enum RPCErrorCode {
    /// The line was not valid JSON (or not valid UTF-8).
    public static let parseError = -32700
    /// Valid JSON that is not a JSON-RPC 2.0 message.
    public static let invalidRequest = -32600
    /// The receiver does not implement the method.
    public static let methodNotFound = -32601
    /// The parameters do not have the documented shape.
    public static let invalidParams = -32602
    /// The receiver failed in a way that is not the handler's fault.
    public static let internalError = -32603

    /// The handler threw or reported failure.
    public static let handlerFailed = -32000
    /// `NSExtensionPrincipalClass` did not name a class the runtime could instantiate.
    public static let principalClassNotFound = -32001
    /// The request was cancelled with `$/cancelRequest` before it completed.
    public static let requestCancelled = -32002
    /// A request other than `initialize` arrived before `initialize`.
    public static let notInitialized = -32003
    /// The two sides speak different protocol versions.
    public static let unsupportedProtocolVersion = -32004
    /// A line exceeded the 16 MiB limit.
    public static let lineTooLong = -32005
    /// Host-side: the call's deadline passed before a response arrived.
    public static let deadlineExceeded = -32010
    /// Host-side: the extension process ended or was stopped during the call.
    public static let extensionTerminated = -32011
    /// Host-side: the extension was killed for exceeding its memory limit.
    public static let memoryLimitExceeded = -32012
    /// Host-side: the extension could not be launched.
    public static let launchFailed = -32013
    /// Host-side: the extension broke the protocol (bad frame, bad response shape).
    public static let protocolViolation = -32014
    /// Host-side: a host service (pass library, UI, ...) failed.
    public static let serviceFailed = -32015
}

/// The `error` member of a JSON-RPC response.
public struct RPCErrorObject: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// One of ``RPCErrorCode``'s values, or any other integer the peer chose.
    public var code: Int
    /// A one-sentence explanation for people.
    public var message: String
    /// Optional structured detail.
    public var data: JSONValue?

    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public var description: String { "\(message) (code \(code))" }
}
