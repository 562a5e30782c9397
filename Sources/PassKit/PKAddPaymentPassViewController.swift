import Foundation
import UIKit

/// What the add-card sheet reports to its presenter (`PKAddPaymentPassViewControllerDelegate`).
@preconcurrency @MainActor
public protocol PKAddPaymentPassViewControllerDelegate: AnyObject {
    /// The sheet needs the issuer's encrypted card data for `certificates`, `nonce` and `nonceSignature`.
    func addPaymentPassViewController(_ controller: PKAddPaymentPassViewController,
                                      generateRequestWithCertificateChain certificates: [Data], nonce: Data,
                                      nonceSignature: Data,
                                      completionHandler handler: @escaping (PKAddPaymentPassRequest) -> Void)
    /// The sheet finished, with the added pass or an error.
    func addPaymentPassViewController(_ controller: PKAddPaymentPassViewController, didFinishAdding pass: PKSecureElementPass?,
                                      error: (any Error)?)
}

/// The in-app add-card sheet (`PKAddPaymentPassViewController`). Issuer extensions only ask
/// ``canAddPaymentPass()``; Wallet's own flow (`wallet-host add-card`) adds the cards, so the
/// sheet is never shown here.
@preconcurrency @MainActor
open class PKAddPaymentPassViewController: UIViewController {
    /// The delegate the sheet reports to.
    open weak var delegate: PKAddPaymentPassViewControllerDelegate?
    /// The configuration the sheet was made with.
    public let configuration: PKAddPaymentPassRequestConfiguration?

    /// True: the simulated iPhone can add payment passes.
    open class func canAddPaymentPass() -> Bool { true }

    /// A sheet for `configuration`, reporting to `delegate`.
    public init?(requestConfiguration configuration: PKAddPaymentPassRequestConfiguration,
                 delegate: PKAddPaymentPassViewControllerDelegate?) {
        self.configuration = configuration
        self.delegate = delegate
        super.init(nibName: nil, bundle: nil)
    }

    /// Storyboards do not exist here; this initializer fails.
    public required init?(coder: NSCoder) {
        return nil
    }
}
