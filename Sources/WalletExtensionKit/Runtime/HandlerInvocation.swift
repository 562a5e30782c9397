import Synchronization
import WalletWire

/// The four calls of a non-UI handler, each with a completion form and an async form.
enum HandlerMethod: String, Sendable {
    case status
    case passEntries
    case remotePassEntries
    case generateAddPaymentPassRequest

    /// How the overridable pair is spelled in Swift, for messages to people.
    var swiftForms: String {
        switch self {
        case .generateAddPaymentPassRequest:
            return "generateAddPaymentPassRequestForPassEntryWithIdentifier(...completionHandler:) "
                + "nor its async form"
        default:
            return "\(rawValue)(completion:) nor \(rawValue)() async"
        }
    }
}

/// Per-instance bookkeeping that lets the two forms of a call delegate to each other.
///
/// The runtime calls the completion form. The base completion form runs the async form in
/// a task; the base async form calls the completion form. When the base completion form
/// reaches the base async form of the same call, neither is overridden: the call fails with
/// "method not found" instead of recursing.
final class HandlerInvocation: Sendable {
    private struct State {
        var responder: RequestResponder?
        var bridgedToAsyncForm: Set<HandlerMethod> = []
        var neitherFormOverridden: Set<HandlerMethod> = []
    }

    private let state = Mutex(State())

    /// The call this instance serves; `nil` for an instance the runtime did not create.
    var responder: RequestResponder? {
        get { state.withLock { $0.responder } }
        set { state.withLock { $0.responder = newValue } }
    }

    /// The base completion form: runs the async form in a task and completes with its value.
    func runAsyncForm<Handler: PKIssuerProvisioningExtensionHandler, Value: Sendable>(
        _ method: HandlerMethod, of handler: Handler,
        completion: @escaping @Sendable (Value) -> Void,
        asyncForm: @escaping @Sendable (Handler) async -> Value
    ) {
        let responder = state.withLock { state in
            state.bridgedToAsyncForm.insert(method)
            return state.responder
        }
        // The instance serves this one call and nothing else touches it any more.
        let handlerForTask = UncheckedSendable(handler)
        let task = Task {
            let value = await asyncForm(handlerForTask.value)
            if self.state.withLock({ $0.neitherFormOverridden.contains(method) }) {
                let message = "\(String(reflecting: type(of: handlerForTask.value))) implements neither \(method.swiftForms)"
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
    func neitherFormIsOverridden(_ method: HandlerMethod) -> Bool {
        state.withLock { state in
            guard state.bridgedToAsyncForm.contains(method) else { return false }
            state.neitherFormOverridden.insert(method)
            return true
        }
    }
}
