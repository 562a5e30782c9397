import WalletWire

/// The user interface of a UI extension, provided by the host's user agent (scripted answers
/// in CI, terminal prompts interactively): forms with `ui.prompt` (what UIKit's alerts become)
/// and Face ID with `ui.biometric` (what LocalAuthentication's evaluations become). Only the UI
/// extension point may use it; the host refuses a non-UI extension with "method not found".
package enum WalletUserInterface {
    /// Shows `form` and waits for the user.
    /// - Throws: ``HostServiceError`` when the host refuses or cannot ask.
    package static func prompt(_ form: UIPromptParams) throws(HostServiceError) -> UIPromptResult {
        try HostServiceCall.send(WireMethod.uiPrompt, params: form, expecting: UIPromptResult.self)
    }

    /// The async form of ``prompt(_:)``: waits for the user without holding a thread, so that
    /// several forms can be with the user at once (one per call in flight) while the main queue,
    /// served by the same small pool of threads, goes on.
    package static func prompt(_ form: UIPromptParams) async throws(HostServiceError) -> UIPromptResult {
        try await HostServiceCall.send(WireMethod.uiPrompt, params: form, expecting: UIPromptResult.self)
    }

    /// Asks for a biometric check and waits for the result: true when the user passed it.
    /// - Parameter reason: Why the extension asks, shown to the user.
    /// - Throws: ``HostServiceError`` when the host refuses or cannot ask.
    package static func authenticateWithBiometrics(reason: String) throws(HostServiceError) -> Bool {
        try HostServiceCall.send(WireMethod.uiBiometric, params: UIBiometricParams(reason: reason),
                                 expecting: UIBiometricResult.self).success
    }

    /// The async form of ``authenticateWithBiometrics(reason:)``.
    package static func authenticateWithBiometrics(reason: String) async throws(HostServiceError) -> Bool {
        try await HostServiceCall.send(WireMethod.uiBiometric, params: UIBiometricParams(reason: reason),
                                       expecting: UIBiometricResult.self).success
    }
}
