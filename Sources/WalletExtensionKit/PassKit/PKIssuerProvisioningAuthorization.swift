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

/// What the UI extension's principal class adopts
/// (`PKIssuerProvisioningExtensionAuthorizationProviding`).
///
/// The runtime sets ``completionHandler`` before it calls
/// ``PKIssuerProvisioningAuthorizationViewController/viewDidLoad()``; call it once with the
/// result. Calling it from any thread is fine.
public protocol PKIssuerProvisioningExtensionAuthorizationProviding: AnyObject {
    /// Set by the runtime; call it once when the user has authorized or canceled.
    var completionHandler: ((PKIssuerProvisioningExtensionAuthorizationResult) -> Void)? { get set }
}

/// The base class of a UI extension's principal class, standing in for `UIViewController`.
///
/// There is no UIKit on Linux. Subclass this class, adopt
/// ``PKIssuerProvisioningExtensionAuthorizationProviding`` and override ``viewDidLoad()``:
///
/// ```swift
/// final class WUIExtHandler: PKIssuerProvisioningAuthorizationViewController,
///                            PKIssuerProvisioningExtensionAuthorizationProviding {
///     var completionHandler: ((PKIssuerProvisioningExtensionAuthorizationResult) -> Void)?
///
///     override func viewDidLoad() {
///         super.viewDidLoad()
///         let answer = try? WalletUserInterface.prompt(PromptForm(title: "Sign in", fields: [], actions: ["OK", "Cancel"]))
///         completionHandler?(answer?.action == "OK" ? .authorized : .canceled)
///     }
/// }
/// ```
///
/// For every `authorize` call the runtime creates a new instance, sets `completionHandler`
/// and calls ``viewDidLoad()`` on the call's own thread; the user interface is the host's
/// user agent, reached through ``WalletUserInterface``. The call completes when
/// `completionHandler` is called, which may happen after `viewDidLoad()` returns.
open class PKIssuerProvisioningAuthorizationViewController: WalletExtensionPrincipal {
    /// Creates a controller; the runtime calls this once per `authorize` call.
    public required init() {}

    /// Called once per `authorize` call, after `completionHandler` is set: show the login
    /// (with ``WalletUserInterface``) and call `completionHandler` when done.
    open func viewDidLoad() {}
}

/// Lets `class WUIExtHandler: UIViewController, PKIssuerProvisioningExtensionAuthorizationProviding`
/// compile unchanged when `import UIKit` becomes `import WalletExtensionKit`.
public typealias UIViewController = PKIssuerProvisioningAuthorizationViewController
