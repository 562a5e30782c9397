import FoundationEssentials

/// A host -> extension method of the wire protocol: its name, who answers it, and the types of
/// its params and result. ``WireMethods`` lists them; ``WireMethodDescriptor`` is the one
/// conforming type.
///
/// Code that holds an `any WireMethodDescribing` (a lookup by name) reaches the typed world by
/// passing it to a generic function, which opens the existential:
///
/// ```swift
/// func call<Method: WireMethodDescribing>(_ method: Method) async -> Method.Result? { ... }
/// if let method = WireMethods.named("status") { _ = await call(method) }
/// ```
public protocol WireMethodDescribing: Sendable {
    /// The `params` of the request; ``NoParams`` for a method that takes none.
    associatedtype Params: Codable & Sendable
    /// The `result` of a success response; an `Optional` when the result may be `null`.
    associatedtype Result: Codable & Sendable

    /// The method name on the wire, e.g. `status`.
    var name: String { get }
    /// Who answers it.
    var role: WireMethodRole { get }
}

extension WireMethodDescribing {
    /// Decodes the `params` of a request line for this method (a missing `params` reads as `{}`).
    /// - Parameter line: The whole JSON-RPC request line, with or without its newline.
    /// - Returns: The typed params.
    /// - Throws: ``WireDecodingError`` with ``RPCErrorCode/invalidParams``, naming the bad key.
    public func decodeParams(fromRequest line: Data) throws(WireDecodingError) -> Params {
        try WireCodec().params(Params.self, from: line)
    }

    /// Decodes the `result` of a success response line for this method, once, into its type.
    /// - Parameter line: The whole JSON-RPC response line, with or without its newline.
    /// - Returns: The typed result.
    /// - Throws: ``WireDecodingError`` naming the bad key when the result has the wrong shape.
    public func decodeResult(fromResponse line: Data) throws(WireDecodingError) -> Result {
        try WireCodec().result(Result.self, from: line)
    }

    /// ``decodeResult(fromResponse:)`` for a caller that does not know the type statically
    /// (a CLI that prints whatever the method returns): decoded once, never re-encoded.
    /// - Parameter line: The whole JSON-RPC response line.
    /// - Returns: The typed result as an existential; encoding it gives the result's JSON.
    /// - Throws: ``WireDecodingError`` naming the bad key when the result has the wrong shape.
    public func decodeAnyResult(fromResponse line: Data) throws(WireDecodingError) -> any Encodable & Sendable {
        try decodeResult(fromResponse: line)
    }

    /// ``decodeParams(fromRequest:)`` for a caller that does not know the type statically.
    /// - Parameter line: The whole JSON-RPC request line.
    /// - Returns: The typed params as an existential.
    /// - Throws: ``WireDecodingError`` with ``RPCErrorCode/invalidParams``, naming the bad key.
    public func decodeAnyParams(fromRequest line: Data) throws(WireDecodingError) -> any Encodable & Sendable {
        try decodeParams(fromRequest: line)
    }
}

/// One entry of the method table: a method's name and role, typed by its params and result.
///
/// The types carry no data; they let a caller decode and build messages with the right types
/// without naming them again (`WireMethods.status.decodeResult(fromResponse: line)` is a
/// ``StatusResult``).
public struct WireMethodDescriptor<Params: Codable & Sendable, Result: Codable & Sendable>: WireMethodDescribing, Hashable {
    public let name: String
    public let role: WireMethodRole

    /// Creates a table entry; the table itself is ``WireMethods``.
    /// - Parameters:
    ///   - name: The method name on the wire.
    ///   - role: Who answers it.
    ///   - params: The type of its `params`.
    ///   - result: The type of its `result`.
    public init(_ name: String, role: WireMethodRole, params: Params.Type, result: Result.Type) {
        self.name = name
        self.role = role
    }
}
