import Foundation

extension NewPackageTemplate {
    var signInMain: String {
        """
        // The one file an iOS extension does not have: it names the principal class
        // (NSExtensionPrincipalClass in Bundles/\(names.appBundle)/PlugIns/\(names.signInTarget).appex/Info.plist).
        import WalletExtensionKit

        WalletExtension.main { \(names.signInController)() }

        """
    }

    /// The account the sign-in accepts, and the check: one file both UIs share.
    var signInAccount: String {
        """
        /// The test user the sign-in accepts. Replace the check with a call to the bank's sign-in.
        enum TestAccount {
            static let username = "demo"
            static let password = "demo"

            static func accepts(username: String, password: String) -> Bool {
                username == Self.username && password == Self.password
            }
        }

        """
    }

    /// A UIKit sign-in: two fields and two buttons, the screen the host's user agent fills in.
    var signInUIKit: String {
        """
        import PassKit
        import UIKit

        /// \(names.name)'s UI extension: Wallet shows it when status says `requiresAuthentication`. The user
        /// signs in with the test account (`demo`/`demo`); three wrong tries cancel. The host sees the screen
        /// as a form: the fields by their accessibility identifiers (`username`, `password`), the buttons by title.
        final class \(names.signInController): UIViewController, PKIssuerProvisioningExtensionAuthorizationProviding {
            var completionHandler: ((PKIssuerProvisioningExtensionAuthorizationResult) -> Void)?

            private let message = UILabel()
            private let username = UITextField()
            private let password = UITextField()
            private var failedAttempts = 0

            override func viewDidLoad() {
                super.viewDidLoad()
                title = "Sign in to \(names.name)"
                view.backgroundColor = .systemBackground
                message.text = "Sign in to add your cards to Apple Wallet."
                message.numberOfLines = 0
                username.placeholder = "User name"
                username.accessibilityIdentifier = "username"
                username.autocapitalizationType = .none
                password.placeholder = "Password"
                password.accessibilityIdentifier = "password"
                password.isSecureTextEntry = true
                let signIn = UIButton(type: .system)
                signIn.setTitle("Sign In", for: .normal)
                signIn.addAction(UIAction { [weak self] _ in self?.signIn() }, for: .touchUpInside)
                let cancel = UIButton(type: .system)
                cancel.setTitle("Cancel", for: .normal)
                cancel.addAction(UIAction { [weak self] _ in self?.completionHandler?(.canceled) }, for: .touchUpInside)
                let stack = UIStackView(arrangedSubviews: [message, username, password, signIn, cancel])
                stack.axis = .vertical
                stack.spacing = 16
                stack.translatesAutoresizingMaskIntoConstraints = false
                view.addSubview(stack)
                NSLayoutConstraint.activate([
                    stack.leadingAnchor.constraint(equalTo: view.layoutMarginsGuide.leadingAnchor),
                    stack.trailingAnchor.constraint(equalTo: view.layoutMarginsGuide.trailingAnchor),
                    stack.centerYAnchor.constraint(equalTo: view.centerYAnchor),
                ])
            }

            private func signIn() {
                if TestAccount.accepts(username: username.text ?? "", password: password.text ?? "") {
                    completionHandler?(.authorized)
                    return
                }
                failedAttempts += 1
                if failedAttempts >= 3 {
                    completionHandler?(.canceled)
                } else {
                    message.text = "Incorrect user name or password."
                    password.text = ""
                }
            }
        }

        """
    }

    /// A SwiftUI sign-in in a hosting controller, the principal class.
    var signInSwiftUI: String {
        """
        import PassKit
        import SwiftUI
        import UIKit

        /// \(names.name)'s UI extension: Wallet shows it when status says `requiresAuthentication`. The
        /// principal class hosts the SwiftUI sign-in; the host sees it as a form: the fields by their
        /// accessibility identifiers (`username`, `password`), the buttons by title.
        final class \(names.signInController): UIViewController, PKIssuerProvisioningExtensionAuthorizationProviding {
            var completionHandler: ((PKIssuerProvisioningExtensionAuthorizationResult) -> Void)?

            override func viewDidLoad() {
                super.viewDidLoad()
                let hosting = UIHostingController(rootView: SignInView { [weak self] authorized in
                    self?.completionHandler?(authorized ? .authorized : .canceled)
                })
                addChild(hosting)
                view.addSubview(hosting.view)
                hosting.didMove(toParent: self)
            }
        }

        /// The test account (`demo`/`demo`); three wrong tries cancel.
        struct SignInView: View {
            @State private var username = ""
            @State private var password = ""
            @State private var message = "Sign in to add your cards to Apple Wallet."
            @State private var failedAttempts = 0
            let onFinish: (Bool) -> Void

            var body: some View {
                NavigationStack {
                    VStack(spacing: 16) {
                        Text(message)
                        TextField("User name", text: $username)
                            .accessibilityIdentifier("username")
                        SecureField("Password", text: $password)
                            .accessibilityIdentifier("password")
                        Button("Sign In") { signIn() }
                        Button("Cancel", role: .cancel) { onFinish(false) }
                    }
                    .padding()
                    .navigationTitle("Sign in to \(names.name)")
                }
            }

            private func signIn() {
                if TestAccount.accepts(username: username, password: password) {
                    onFinish(true)
                    return
                }
                failedAttempts += 1
                if failedAttempts >= 3 {
                    onFinish(false)
                } else {
                    message = "Incorrect user name or password."
                    password = ""
                }
            }
        }

        """
    }
}
