import Foundation
import UIKit

/// How the user's authorization in the UI extension ended
/// (`PKIssuerProvisioningExtensionAuthorizationResult`).
public enum PKIssuerProvisioningExtensionAuthorizationResult: Int, Sendable, Hashable {
    /// The user canceled, or is not allowed to add cards; Wallet ends the flow.
    case canceled = 0
    /// The user is authorized to add cards.
    case authorized = 1

    /// The spelling on the wire.
    var wireValue: String {
        switch self {
        case .canceled: return "canceled"
        case .authorized: return "authorized"
        }
    }
}

/// What the UI extension's principal class, a `UIViewController` subclass, adopts
/// (`PKIssuerProvisioningExtensionAuthorizationProviding`).
///
/// ```swift
/// class WUIExtHandler: UIViewController, PKIssuerProvisioningExtensionAuthorizationProviding {
///     var completionHandler: ((PKIssuerProvisioningExtensionAuthorizationResult) -> Void)?
///
///     override func viewDidLoad() {
///         super.viewDidLoad()
///         let alert = UIAlertController(title: "Sign in", message: nil, preferredStyle: .alert)
///         alert.addAction(UIAlertAction(title: "OK", style: .default) { _ in self.completionHandler?(.authorized) })
///         present(alert, animated: true)
///     }
/// }
/// ```
///
/// For every `authorize` call the runtime creates a new controller, sets `completionHandler`,
/// and presents it as Wallet would, on the main thread: `loadView`, `viewDidLoad`,
/// `viewWillAppear`, `viewDidAppear`; then, once `completionHandler` is called,
/// `viewWillDisappear` and `viewDidDisappear`. The call completes with the first result.
@preconcurrency @MainActor
public protocol PKIssuerProvisioningExtensionAuthorizationProviding: NSObjectProtocol {
    /// Set by the runtime; call it once when the user has authorized or canceled.
    var completionHandler: ((PKIssuerProvisioningExtensionAuthorizationResult) -> Void)? { get set }
}
