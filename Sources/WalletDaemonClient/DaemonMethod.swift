/// One method of the daemon's client API: its name, with the types of its params and of its
/// result, so that a client cannot send one method's params or read another's result.
///
/// ``DaemonMethods`` declares every one; the daemon registers each under its ``name``, a
/// ``DaemonClient`` sends it with ``DaemonClient/call(_:_:onNotification:onRequest:)``.
public struct DaemonMethod<Params: Encodable & Sendable, Result: Decodable & Sendable>: Sendable {
    /// The JSON-RPC method name (`host.status`).
    public let name: String

    /// Declares a method; ``DaemonMethods`` holds the client API's.
    public init(_ name: String) {
        self.name = name
    }
}

/// One notification the daemon sends a client while it serves the client's request: its
/// method name and the type of its params.
public struct DaemonNotification<Params: Codable & Sendable>: Sendable {
    /// The JSON-RPC method name of the notification (`wallet.transcript`).
    public let name: String

    /// Declares a notification; ``DaemonMethods`` holds the client API's.
    public init(_ name: String) {
        self.name = name
    }
}

/// A request the daemon sends a client while it serves the client's request (a flow asking
/// its user): its method name, the type of its params and of the client's answer.
public struct DaemonClientRequest<Params: Codable & Sendable, Answer: Codable & Sendable>: Sendable {
    /// The JSON-RPC method name of the request (`wallet.chooseIssuer`).
    public let name: String

    /// Declares a request; ``DaemonMethods`` holds the client API's.
    public init(_ name: String) {
        self.name = name
    }
}
