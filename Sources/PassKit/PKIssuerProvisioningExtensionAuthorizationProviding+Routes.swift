import Dispatch
import Foundation
import UIKit
import WalletExtensionRuntime
import WalletWire

/// Serves `authorize` with the UI extension's principal controller.
package enum AuthorizationRoutes {
    /// The UI calls of ``WireMethods``: `authorize`, served by a fresh controller from `make`,
    /// presented on the main thread as Wallet presents it.
    package static func callRoutes<Controller: UIViewController & PKIssuerProvisioningExtensionAuthorizationProviding>(
        make: @escaping @MainActor @Sendable () -> Controller
    ) -> [CallRoute] {
        [CallRoute(WireMethods.authorize) { _, complete in
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    AppGroupDefaults.refresh()
                    present(make(), completing: complete)
                }
            }
        }]
    }

    /// Sets the completion handler, runs the appearance sequence and shows the screen. The responder keeps the
    /// controller alive, as a presenter would, until the call completes.
    @MainActor
    private static func present<Controller: UIViewController & PKIssuerProvisioningExtensionAuthorizationProviding>(
        _ controller: Controller, completing complete: CallRoute.Completion<AuthorizeResult>
    ) {
        complete.responder.keepAlive(controller)
        let screenEnd = ScreenSessionEnd()
        let walletCompletion: (PKIssuerProvisioningExtensionAuthorizationResult) -> Void = { result in
            // No screen is sent once the result is in, whichever thread this runs on.
            screenEnd.end()
            // The single-shot responder drops a second result; the controller disappears once,
            // on the main thread, whichever thread called.
            complete(AuthorizeResult(result: result.wireValue))
            let presented = UncheckedSendable(controller)
            let dismiss: @Sendable () -> Void = {
                MainActor.assumeIsolated {
                    ScreenSession.end(showing: presented.value)
                    presented.value.endAppearance()
                    // The handler holds the controller; drop it so that the two can go.
                    presented.value.completionHandler = nil
                }
            }
            if Thread.isMainThread { dismiss() } else { DispatchQueue.main.async(execute: dismiss) }
        }
        controller.completionHandler = walletCompletion
        controller.beginAppearance()
        // The screen is the form: what the controller shows goes to the user agent. Leaving the
        // sheet is Wallet's own answer: it dismisses the controller (viewWillDisappear and
        // viewDidDisappear run) and takes the authorization as canceled, whether or not the
        // issuer's code ever calls the completion handler.
        ScreenSession.begin(showing: controller, until: screenEnd, onDismissal: { walletCompletion(.canceled) })
    }
}
