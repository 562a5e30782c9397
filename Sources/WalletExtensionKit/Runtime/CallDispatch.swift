import WalletWire

extension PKIssuerProvisioningExtensionHandler {
    /// The non-UI calls of ``WireMethods``, each served by a fresh instance on the call's own thread.
    static var callRoutes: [CallRoute] {
        [
            CallRoute(WireMethods.status) { _, complete in
                instance(serving: complete.responder).status { status in
                    complete(StatusResult(passEntriesAvailable: status.passEntriesAvailable,
                                          remotePassEntriesAvailable: status.remotePassEntriesAvailable,
                                          requiresAuthentication: status.requiresAuthentication))
                }
            },
            CallRoute(WireMethods.passEntries) { _, complete in
                instance(serving: complete.responder).passEntries { entries in completeWithEntries(entries, complete) }
            },
            CallRoute(WireMethods.remotePassEntries) { _, complete in
                instance(serving: complete.responder).remotePassEntries { entries in completeWithEntries(entries, complete) }
            },
            CallRoute(WireMethods.generateAddPaymentPassRequest) { params, complete in
                instance(serving: complete.responder).generateAddPaymentPassRequestForPassEntryWithIdentifier(
                    params.identifier, configuration: PKAddPaymentPassRequestConfiguration(wireValue: params.configuration),
                    certificateChain: params.certificateChain, nonce: params.nonce, nonceSignature: params.nonceSignature
                ) { request in
                    // A nil request is a valid answer: the result is JSON null.
                    complete(request?.wireValue)
                }
            },
        ]
    }

    /// A new instance linked to the call it serves.
    private static func instance(serving responder: RequestResponder) -> Self {
        let handler = self.init()
        handler.invocation.responder = responder
        return handler
    }

    private static func completeWithEntries(_ entries: [PKIssuerProvisioningExtensionPassEntry],
                                            _ complete: CallRoute.Completion<PassEntriesResult>) {
        var wireEntries: [WirePassEntry] = []
        for entry in entries {
            guard let paymentEntry = entry as? PKIssuerProvisioningExtensionPaymentPassEntry else {
                complete.fail(RPCErrorObject(
                    code: RPCErrorCode.handlerFailed,
                    message: "entry \(entry.identifier) is not a PKIssuerProvisioningExtensionPaymentPassEntry"))
                return
            }
            wireEntries.append(paymentEntry.wireValue)
        }
        complete(PassEntriesResult(entries: wireEntries))
    }
}

extension PKIssuerProvisioningAuthorizationViewController {
    /// The UI calls of ``WireMethods``: `authorize`, served by a fresh controller on the call's own thread.
    static var callRoutes: [CallRoute] {
        [CallRoute(WireMethods.authorize) { _, complete in serveAuthorization(complete) }]
    }

    /// The runtime sets `completionHandler`, then calls `viewDidLoad()`, as UIKit would when
    /// Wallet presents the controller. The call completes when the completion handler is
    /// called; until then the runtime keeps the controller alive, as a presenter would.
    private static func serveAuthorization(_ complete: CallRoute.Completion<AuthorizeResult>) {
        let controller = self.init()
        guard let provider = controller as? PKIssuerProvisioningExtensionAuthorizationProviding else {
            complete.fail(RPCErrorObject(
                code: RPCErrorCode.methodNotFound,
                message: "\(String(reflecting: self)) does not adopt PKIssuerProvisioningExtensionAuthorizationProviding"))
            return
        }
        complete.responder.keepAlive(controller)
        provider.completionHandler = { result in
            complete(AuthorizeResult(result: result.wireValue))
        }
        controller.viewDidLoad()
    }
}
