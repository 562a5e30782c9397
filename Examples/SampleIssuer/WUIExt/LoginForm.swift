import WalletExtensionKit

/// The sample's login credentials: the only user the sample issuer knows.
///
/// The login form has no message on its first showing, so this is where the credentials are
/// written down: user name `jappleseed`, password `wallet-demo`.
enum SampleAccount {
    static let username = "jappleseed"
    static let password = "wallet-demo"
}

/// The login screen: a user name and password form with "Log In", "Use Face ID" and "Cancel".
///
/// - "Log In" with the right credentials authorizes; wrong ones show the form again with
///   "Incorrect username or password.", and the third wrong attempt cancels.
/// - "Use Face ID" asks for a biometric check: success authorizes, failure shows the form
///   again (three failed checks cancel too, as iOS locks Face ID after repeated failures).
/// - "Cancel", or a user interface the host cannot show, cancels.
struct LoginForm {
    static let logIn = "Log In"
    static let useFaceID = "Use Face ID"
    static let cancel = "Cancel"
    static let maximumAttempts = 3

    func run() -> PKIssuerProvisioningExtensionAuthorizationResult {
        var message: String?
        var failedPasswords = 0
        var failedFaceIDChecks = 0
        while true {
            let answer: PromptResponse
            do {
                answer = try WalletUserInterface.prompt(form(message: message))
            } catch {
                print("WUIExt: the login form could not be shown: \(error)")
                return .canceled
            }
            switch answer.action {
            case Self.logIn:
                if answer[field: "username"] == SampleAccount.username, answer[field: "password"] == SampleAccount.password {
                    return .authorized
                }
                failedPasswords += 1
                if failedPasswords >= Self.maximumAttempts { return .canceled }
                message = "Incorrect username or password."
            case Self.useFaceID:
                if authenticateWithFaceID() { return .authorized }
                failedFaceIDChecks += 1
                if failedFaceIDChecks >= Self.maximumAttempts { return .canceled }
                message = "Face ID did not recognize you. Log in with your password."
            default:
                return .canceled
            }
        }
    }

    private func form(message: String?) -> PromptForm {
        PromptForm(
            title: "Sign in to Sample Issuer",
            message: message,
            fields: [
                PromptForm.Field(name: "username", label: "Username"),
                PromptForm.Field(name: "password", label: "Password", isSecure: true),
            ],
            actions: [Self.logIn, Self.useFaceID, Self.cancel])
    }

    private func authenticateWithFaceID() -> Bool {
        do {
            return try WalletUserInterface.authenticateWithBiometrics(reason: "Sign in to add your Sample Issuer cards to Wallet.")
        } catch {
            print("WUIExt: Face ID is not available: \(error)")
            return false
        }
    }
}
