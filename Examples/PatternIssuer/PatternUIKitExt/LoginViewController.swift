import OSLog
import UIKit

/// A login screen as UI extensions build it: a scroll view holding a stack of labels, text
/// fields, a switch and buttons laid out with anchors; the password is checked by the backend
/// (URLSession) while a spinner turns, and a wrong one shows an
/// error label. Swift 5 language mode, as this code was written.
final class LoginViewController: UIViewController, UITextFieldDelegate {
    /// Called with true once the backend accepted the password, false when the user cancels.
    var onFinish: ((Bool) -> Void)?

    private let logger = Logger(subsystem: "com.example.patterns", category: "login")
    private let scrollView = UIScrollView()
    private let stack = UIStackView()
    private let heading = UILabel()
    private let hint = UILabel()
    private let errorLabel = UILabel()
    private let usernameField = UITextField()
    private let passwordField = UITextField()
    private let rememberLabel = UILabel()
    private let rememberSwitch = UISwitch()
    private let spinner = UIActivityIndicatorView(style: .medium)
    private let texts = ScreenTexts.current
    private lazy var loginButton = UIButton(configuration: .filled(), primaryAction: UIAction(title: texts.logIn) { [weak self] _ in
        self?.logIn()
    })
    private let cancelButton = UIButton(type: .system)
    private var attemptsLeft = 3

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        heading.text = "Pattern Bank"
        heading.font = .preferredFont(forTextStyle: .title1)
        hint.text = "Use your online banking password."
        hint.textColor = .secondaryLabel
        hint.numberOfLines = 0
        errorLabel.textColor = .systemRed
        errorLabel.isHidden = true
        usernameField.placeholder = "Username"
        usernameField.textContentType = .username
        usernameField.autocapitalizationType = .none
        usernameField.borderStyle = .roundedRect
        passwordField.placeholder = "Password"
        passwordField.isSecureTextEntry = true
        passwordField.textContentType = .password
        passwordField.delegate = self
        rememberLabel.text = "Remember me"
        rememberSwitch.accessibilityIdentifier = "remember"
        loginButton.isEnabled = false
        cancelButton.setTitle(texts.cancel, for: .normal)
        cancelButton.addAction(UIAction { [weak self] _ in self?.onFinish?(false) }, for: .touchUpInside)
        for field in [usernameField, passwordField] {
            field.addAction(UIAction { [weak self] _ in self?.updateLoginButton() }, for: .editingChanged)
        }

        let rememberRow = UIStackView(arrangedSubviews: [rememberLabel, rememberSwitch])
        rememberRow.axis = .horizontal
        rememberRow.spacing = 8
        [heading, hint, errorLabel, usernameField, passwordField, rememberRow, spinner, loginButton, cancelButton]
            .forEach(stack.addArrangedSubview)
        stack.axis = .vertical
        stack.spacing = 12
        stack.setCustomSpacing(24, after: hint)
        scrollView.translatesAutoresizingMaskIntoConstraints = false
        stack.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(scrollView)
        scrollView.addSubview(stack)
        NSLayoutConstraint.activate([
            scrollView.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor),
            scrollView.leadingAnchor.constraint(equalTo: view.leadingAnchor),
            scrollView.trailingAnchor.constraint(equalTo: view.trailingAnchor),
            scrollView.bottomAnchor.constraint(equalTo: view.bottomAnchor),
            stack.topAnchor.constraint(equalTo: scrollView.contentLayoutGuide.topAnchor, constant: 32),
            stack.leadingAnchor.constraint(equalTo: scrollView.frameLayoutGuide.leadingAnchor, constant: 20),
            stack.trailingAnchor.constraint(equalTo: scrollView.frameLayoutGuide.trailingAnchor, constant: -20),
            loginButton.heightAnchor.constraint(greaterThanOrEqualToConstant: 44),
        ])
    }

    private func updateLoginButton() {
        loginButton.isEnabled = !(usernameField.text ?? "").isEmpty && !(passwordField.text ?? "").isEmpty
    }

    func textFieldShouldReturn(_ textField: UITextField) -> Bool {
        logIn()
        return true
    }

    private func logIn() {
        errorLabel.isHidden = true
        loginButton.isEnabled = false
        spinner.startAnimating()
        LoginBackend.check(username: usernameField.text ?? "", password: passwordField.text ?? "") { accepted in
            DispatchQueue.main.async {
                self.spinner.stopAnimating()
                if accepted {
                    self.logger.info("logged in; remember: \(self.rememberSwitch.isOn)")
                    self.onFinish?(true)
                    return
                }
                self.attemptsLeft -= 1
                if self.attemptsLeft == 0 {
                    self.onFinish?(false)
                    return
                }
                self.errorLabel.text = "Incorrect password. \(self.attemptsLeft) attempts left."
                self.errorLabel.isHidden = false
                self.passwordField.text = ""
                self.updateLoginButton()
            }
        }
    }
}
