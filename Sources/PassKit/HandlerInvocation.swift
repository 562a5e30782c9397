import Synchronization
import WalletExtensionRuntime
import WalletWire

/// Per-instance bookkeeping that lets the two forms of a call delegate to each other.
///
/// The runtime calls the completion form. The base completion form runs the async form in
/// a task; the base async form calls the completion form. When the base completion form
/// reaches the base async form of the same call, neither is overridden: the call fails with
/// "method not found" instead of recursing.
package final class HandlerInvocation: Sendable {
    private struct State {
        var responder: RequestResponder?
        /// Wire names (``WireMethodDescribing/name``) of the calls whose base completion form ran.
        var bridgedToAsyncForm: Set<String> = []
        var neitherFormOverridden: Set<String> = []
    }

    private let state = Mutex(State())

    /// The call this instance serves; `nil` for an instance the runtime did not create.
    package var responder: RequestResponder? {
        get { state.withLock { $0.responder } }
        set { state.withLock { $0.responder = newValue } }
    }

    /// The base completion form: runs the async form in a task and completes with its value.
    /// - Parameters:
    ///   - method: The call's entry in the method table.
    ///   - swiftForms: How the overridable pair is spelled in Swift, for the message when neither
    ///     is overridden; by default `name(completion:) nor name() async`.
    func runAsyncForm<Handler: PKIssuerProvisioningExtensionHandler, Value: Sendable>(
        _ method: some WireMethodDescribing, swiftForms: String? = nil, of handler: Handler,
        completion: @escaping @Sendable (Value) -> Void,
        asyncForm: @escaping @Sendable (Handler) async -> Value
    ) {
        let name = method.name
        let forms = swiftForms ?? "\(name)(completion:) nor \(name)() async"
        let responder = state.withLock { state in
            state.bridgedToAsyncForm.insert(name)
            return state.responder
        }
        // The instance serves this one call and nothing else touches it any more.
        let handlerForTask = UncheckedSendable(handler)
        let task = Task {
            let value = await asyncForm(handlerForTask.value)
            if self.state.withLock({ $0.neitherFormOverridden.contains(name) }) {
                let message = "\(String(reflecting: type(of: handlerForTask.value))) implements neither \(forms)"
                if let responder {
                    responder.complete(.failure(RPCErrorObject(code: RPCErrorCode.methodNotFound, message: message)))
                } else {
                    Diagnostics.log(message)
                }
                return
            }
            completion(value)
        }
        responder?.onCancel { task.cancel() }
    }

    /// The base async form: true when it was reached from the base completion form of the
    /// same call, so that it returns a placeholder instead of calling back.
    func neitherFormIsOverridden(_ method: some WireMethodDescribing) -> Bool {
        state.withLock { state in
            guard state.bridgedToAsyncForm.contains(method.name) else { return false }
            state.neitherFormOverridden.insert(method.name)
            return true
        }
    }
}
