import WalletWire

extension DaemonClient {
    /// Sends one of the client API's methods (``DaemonMethods``) and decodes its result as the
    /// method's type.
    /// - Parameters:
    ///   - method: The method, which fixes the types of its params and result.
    ///   - params: Its params.
    ///   - onNotification: Each notification that arrives meanwhile.
    ///   - onRequest: Answers each request the daemon sends meanwhile; nil answers "method not found".
    /// - Returns: The result.
    /// - Throws: `RPCErrorObject` when the daemon answers with an error; ``DaemonError`` when the
    ///   connection ends first or the result is not of the method's type.
    public func call<Params, Result>(_ method: DaemonMethod<Params, Result>, _ params: Params,
                                     onNotification: (DaemonMessage) -> Void = { _ in },
                                     onRequest: ((DaemonMessage) async throws -> any Encodable & Sendable)? = nil) async throws -> Result {
        try await call(method.name, params, as: Result.self, onNotification: onNotification, onRequest: onRequest)
    }

    /// Sends a method that takes no params and decodes its result as the method's type.
    public func call<Result>(_ method: DaemonMethod<NoParams, Result>) async throws -> Result {
        try await call(method.name, NoParams(), as: Result.self)
    }
}

extension DaemonMessage {
    /// Whether this is `notification` and, if so, its params as the notification's type.
    /// - Returns: The params; nil when this message is another method or its params do not decode.
    public func params<Params>(of notification: DaemonNotification<Params>) -> Params? {
        guard method == notification.name else { return nil }
        return try? params(Params.self)
    }
}
