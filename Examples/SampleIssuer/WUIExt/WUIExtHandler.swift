import WalletExtensionKit

/// The sample issuer's UI extension: Wallet runs it when status says
/// `requiresAuthentication`, and it logs the user in with the app's own credentials or
/// with Face ID.
///
/// As on iOS, the principal class is a view controller adopting
/// `PKIssuerProvisioningExtensionAuthorizationProviding` (`UIViewController` is the SDK's
/// `PKIssuerProvisioningAuthorizationViewController`); the "view" is a form the host's user
/// agent shows (`ui.prompt`), see ``LoginForm``.
final class WUIExtHandler: UIViewController, PKIssuerProvisioningExtensionAuthorizationProviding {
    var completionHandler: ((PKIssuerProvisioningExtensionAuthorizationResult) -> Void)?

    override func viewDidLoad() {
        super.viewDidLoad()
        let result = LoginForm().run()
        completionHandler?(result)
    }
}
