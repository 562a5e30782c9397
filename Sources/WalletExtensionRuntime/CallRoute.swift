import FoundationEssentials
import WalletWire

/// One call of the method table (``WireMethods``) bound to the SDK code that serves it.
///
/// The route is typed by its table entry: the serving code receives the entry's params and can
/// only complete with the entry's result type, so the table and the SDK cannot disagree about
/// a shape. The runtime looks routes up by name; a method with no route is "method not found".
package struct CallRoute: Sendable {
    /// A single-shot completion that accepts only the method's result type.
    package struct Completion<Result: Encodable & Sendable>: Sendable {
        /// The call's responder, for what a handler instance needs besides the result
        /// (cancellation, keeping a controller alive, the testing SPI).
        package let responder: RequestResponder

        /// Answers the call with `result`; see ``RequestResponder/complete(_:)``.
        package func callAsFunction(_ result: Result) {
            responder.complete(.result(result))
        }

        /// Answers the call with an error.
        package func fail(_ error: RPCErrorObject) {
            responder.complete(.failure(error))
        }
    }

    /// The table entry this route serves.
    package let method: any WireMethodDescribing
    private let prepare: @Sendable (Data, Bool) throws(WireDecodingError) -> @Sendable (RequestResponder) -> Void

    /// Binds `method` to `serve`, which runs on the call's own thread with the decoded params.
    package init<Method: WireMethodDescribing>(
        _ method: Method, serve: @escaping @Sendable (Method.Params, Completion<Method.Result>) -> Void
    ) {
        self.method = method
        // What empty params decode to, for a method that takes none: every object, `null` and
        // a missing `params` decode as NoParams().
        let noParams = NoParams() as? Method.Params
        prepare = { line, hasEmptyParams throws(WireDecodingError) in
            let params: Method.Params
            if hasEmptyParams, let noParams {
                params = noParams
            } else {
                params = try method.decodeParams(fromRequest: line)
            }
            return { responder in serve(params, Completion(responder: responder)) }
        }
    }

    /// Decodes the params of `line` (on the reader thread, so a bad request is refused at once)
    /// and returns the work that serves the call.
    /// - Parameters:
    ///   - line: The request line.
    ///   - hasEmptyParams: The line's `params` are known to be absent, `null` or `{}`, so a
    ///     method that takes none needs no decoding.
    /// - Throws: ``WireDecodingError`` with ``RPCErrorCode/invalidParams`` naming the bad key.
    package func work(for line: Data, hasEmptyParams: Bool = false) throws(WireDecodingError) -> @Sendable (RequestResponder) -> Void {
        try prepare(line, hasEmptyParams)
    }
}
