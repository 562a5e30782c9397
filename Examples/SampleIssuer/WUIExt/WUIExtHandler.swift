import LocalAuthentication
import PassKit
import UIKit

/// The sample's login credentials: the only user the sample issuer knows.
enum SampleAccount {
    static let username = "jappleseed"
    static let password = "wallet-demo"
}

/// The sample issuer's UI extension: Wallet presents it when status says
/// `requiresAuthentication`, and it logs the user in with the app's credentials or Face ID.
///
/// Plain UIKit: the login is an alert with two text fields and three actions. "Log In" with
/// the right credentials authorizes, wrong ones ask again with a message, and the third
/// wrong attempt cancels; "Use Face ID" evaluates the biometric policy (three failed checks
/// cancel too); "Cancel" cancels.
final class WUIExtHandler: UIViewController, PKIssuerProvisioningExtensionAuthorizationProviding {
    var completionHandler: ((PKIssuerProvisioningExtensionAuthorizationResult) -> Void)?

    static let maximumAttempts = 3
    private var failedPasswords = 0
    private var failedFaceIDChecks = 0

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        showLogin(message: nil)
    }

    private func showLogin(message: String?) {
        let alert = UIAlertController(title: "Sign in to Sample Issuer", message: message, preferredStyle: .alert)
        alert.addTextField { field in
            field.placeholder = "Username"
        }
        alert.addTextField { field in
            field.placeholder = "Password"
            field.isSecureTextEntry = true
        }
        alert.addAction(UIAlertAction(title: "Log In", style: .default) { [weak self, weak alert] _ in
            let fields = alert?.textFields ?? []
            self?.logIn(username: fields.first?.text ?? "", password: fields.last?.text ?? "")
        })
        alert.addAction(UIAlertAction(title: "Use Face ID", style: .default) { [weak self] _ in
            self?.useFaceID()
        })
        alert.addAction(UIAlertAction(title: "Cancel", style: .cancel) { [weak self] _ in
            self?.completionHandler?(.canceled)
        })
        present(alert, animated: true)
    }

    private func logIn(username: String, password: String) {
        if username == SampleAccount.username && password == SampleAccount.password {
            completionHandler?(.authorized)
            return
        }
        failedPasswords += 1
        if failedPasswords >= Self.maximumAttempts {
            completionHandler?(.canceled)
        } else {
            showLogin(message: "Incorrect username or password.")
        }
    }

    private func useFaceID() {
        let context = LAContext()
        context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics,
                               localizedReason: "Sign in to add your Sample Issuer cards to Wallet.") { success, _ in
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                if success {
                    self.completionHandler?(.authorized)
                    return
                }
                self.failedFaceIDChecks += 1
                if self.failedFaceIDChecks >= Self.maximumAttempts {
                    self.completionHandler?(.canceled)
                } else {
                    self.showLogin(message: "Face ID did not recognize you. Log in with your password.")
                }
            }
        }
    }
}
