import WalletWire

/// A result of the documented shape from one method's shape check, with what it was called with.
public struct MethodResult: Sendable {
    /// The method's wire name.
    public var method: String
    /// The parameters it was called with.
    public var params: JSONValue
    /// The result, which the method's exercise judged to have the documented shape.
    public var value: JSONValue
    /// From the ask to the answer.
    public var milliseconds: Double

    /// The result as the type the method table gives `method`.
    /// - Parameter method: The table entry of the method this result came from.
    /// - Returns: The typed result.
    /// - Throws: the decoder's error, naming the key (the shape check has already passed, so
    ///   only a result of another method fails).
    public func value<Method: WireMethodDescribing>(as method: Method) throws -> Method.Result {
        try value.decoded(as: Method.Result.self)
    }

    /// Creates a method result.
    public init(method: String, params: JSONValue, value: JSONValue, milliseconds: Double) {
        self.method = method
        self.params = params
        self.value = value
        self.milliseconds = milliseconds
    }
}
