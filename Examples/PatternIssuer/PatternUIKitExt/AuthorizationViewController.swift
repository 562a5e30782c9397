import PassKit
import UIKit

/// The principal class: a container that shows the login screen as a child controller.
final class AuthorizationViewController: UIViewController, PKIssuerProvisioningExtensionAuthorizationProviding {
    var completionHandler: ((PKIssuerProvisioningExtensionAuthorizationResult) -> Void)?

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Sign in to Pattern Bank"
        let login = LoginViewController()
        login.onFinish = { [weak self] authorized in
            self?.completionHandler?(authorized ? .authorized : .canceled)
        }
        addChild(login)
        view.addSubview(login.view)
        login.view.frame = view.bounds
        login.didMove(toParent: self)
    }
}

/// Alerts built outside any actor, as Swift 5 code does: iOS's UIKit (imported from
/// Objective-C) allows it, and so does this one (`@preconcurrency`).
struct AlertFactory {
    static func networkProblem() -> UIAlertController {
        let alert = UIAlertController(title: "Network", message: "The bank could not be reached.", preferredStyle: .alert)
        alert.addAction(UIAlertAction(title: "OK", style: .default))
        return alert
    }
}
