import WalletExtensionRuntime
import WalletWire

extension PKIssuerProvisioningExtensionHandler {
    /// The non-UI calls of ``WireMethods``, each served by a fresh instance from `make` on the
    /// call's own thread. The responder keeps the instance alive until the call completes.
    package static func callRoutes(make: @escaping @Sendable () -> PKIssuerProvisioningExtensionHandler) -> [CallRoute] {
        /// A new instance linked to the call it serves.
        @Sendable func instance(serving responder: RequestResponder) -> PKIssuerProvisioningExtensionHandler {
            AppGroupDefaults.refresh()
            let handler = make()
            handler.invocation.responder = responder
            responder.keepAlive(handler)
            return handler
        }
        return [
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
