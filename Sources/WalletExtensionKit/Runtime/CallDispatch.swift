import WalletWire

/// A call for a non-UI handler, with its decoded parameters.
enum ProvisioningCall: Sendable {
    case status
    case passEntries
    case remotePassEntries
    case generateAddPaymentPassRequest(GenerateAddPaymentPassRequestParams)
}

extension PKIssuerProvisioningExtensionHandler {
    /// Serves one call with a fresh instance; runs on the call's own thread.
    static func serve(_ call: ProvisioningCall, responder: RequestResponder) {
        let handler = self.init()
        handler.invocation.responder = responder
        switch call {
        case .status:
            handler.status { status in
                responder.complete(.result(StatusResult(
                    passEntriesAvailable: status.passEntriesAvailable,
                    remotePassEntriesAvailable: status.remotePassEntriesAvailable,
                    requiresAuthentication: status.requiresAuthentication)))
            }
        case .passEntries:
            handler.passEntries { entries in responder.complete(entriesOutcome(entries)) }
        case .remotePassEntries:
            handler.remotePassEntries { entries in responder.complete(entriesOutcome(entries)) }
        case .generateAddPaymentPassRequest(let params):
            handler.generateAddPaymentPassRequestForPassEntryWithIdentifier(
                params.identifier, configuration: PKAddPaymentPassRequestConfiguration(wireValue: params.configuration),
                certificateChain: params.certificateChain, nonce: params.nonce, nonceSignature: params.nonceSignature
            ) { request in
                // A nil request is a valid answer: the result is JSON null.
                responder.complete(.result(request?.wireValue))
            }
        }
    }

    private static func entriesOutcome(_ entries: [PKIssuerProvisioningExtensionPassEntry]) -> CallOutcome {
        var wireEntries: [WirePassEntry] = []
        for entry in entries {
            guard let paymentEntry = entry as? PKIssuerProvisioningExtensionPaymentPassEntry else {
                return .failure(RPCErrorObject(
                    code: RPCErrorCode.handlerFailed,
                    message: "entry \(entry.identifier) is not a PKIssuerProvisioningExtensionPaymentPassEntry"))
            }
            wireEntries.append(paymentEntry.wireValue)
        }
        return .result(PassEntriesResult(entries: wireEntries))
    }
}

extension PKIssuerProvisioningAuthorizationViewController {
    /// Serves one `authorize` call with a fresh controller; runs on the call's own thread.
    ///
    /// The runtime sets `completionHandler`, then calls `viewDidLoad()`, as UIKit would when
    /// Wallet presents the controller. The call completes when the completion handler is
    /// called; until then the runtime keeps the controller alive, as a presenter would.
    static func serveAuthorization(responder: RequestResponder) {
        let controller = self.init()
        guard let provider = controller as? PKIssuerProvisioningExtensionAuthorizationProviding else {
            responder.complete(.failure(RPCErrorObject(
                code: RPCErrorCode.methodNotFound,
                message: "\(String(reflecting: self)) does not adopt PKIssuerProvisioningExtensionAuthorizationProviding")))
            return
        }
        responder.keepAlive(controller)
        provider.completionHandler = { result in
            responder.complete(.result(AuthorizeResult(result: result.wireValue)))
        }
        controller.viewDidLoad()
    }
}
