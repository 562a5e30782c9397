import Foundation
import WalletWire

/// What a scripted user does during an add-card flow, read from a JSON file (for CI):
///
/// ```json
/// {"issuer": "com.example.bank",
///  "answers": [{"action": "Log In", "values": {"username": "jane", "password": "secret"}},
///              {"dismiss": true}],
///  "biometric": ["match", "nomatch"],
///  "select": "all",
///  "device": "iphone"}
/// ```
///
/// Every key is optional. `answers` answer the UI extension's `ui.prompt` requests in order
/// (`{"dismiss": true}` leaves the sheet, as a user swiping it down),
/// `biometric` its `ui.biometric` requests in order. `issuer` (bundle identifier or app name)
/// picks the issuer, `select` the entries (`"all"` or a list of entry identifiers), `device`
/// the device (`iphone` or `watch`). A key the format does not know is an error, so a typo
/// does not go unnoticed.
public struct UserAgentScript: Sendable, Equatable {
    /// One scripted answer to a `ui.prompt`: a button (`{"action": "Log In"}`) or leaving the
    /// sheet (`{"dismiss": true}`, Wallet's dismissal, whatever buttons the screen has).
    public struct Answer: Sendable, Hashable {
        /// The action (button) to choose; it must be one of the prompt's actions. Empty for a dismissal.
        public var action: String
        /// Field name -> the text to enter. Every name must be a field of the prompt; a field
        /// without a value is left empty.
        public var values: [String: String]
        /// True to leave the sheet instead of choosing an action.
        public var dismiss: Bool

        /// Creates an answer that chooses `action`.
        public init(action: String, values: [String: String] = [:]) {
            self.action = action
            self.values = values
            self.dismiss = false
        }

        /// An answer that leaves the sheet (Wallet's dismissal).
        public static let dismissal: Answer = {
            var answer = Answer(action: "")
            answer.dismiss = true
            return answer
        }()
    }

    /// One scripted answer to a `ui.biometric` request, named like the iOS Simulator's Face ID menu.
    public enum BiometricResult: String, Sendable, Hashable, CaseIterable {
        /// A matching face (or finger): `success` is true.
        case match
        /// A non-matching face: `success` is false.
        case nomatch
    }

    /// The issuer to pick (bundle identifier or app name); nil leaves the choice to the flow.
    public var issuer: String?
    /// Answers to `ui.prompt`, in order.
    public var answers: [Answer]
    /// Answers to `ui.biometric`, in order.
    public var biometric: [BiometricResult]
    /// Which entries to add; nil leaves the choice to the flow.
    public var selection: EntrySelection?
    /// Which device to add to; nil leaves the choice to the flow.
    public var device: DeviceKind?

    /// Creates a script.
    public init(issuer: String? = nil, answers: [Answer] = [], biometric: [BiometricResult] = [],
                selection: EntrySelection? = nil, device: DeviceKind? = nil) {
        self.issuer = issuer
        self.answers = answers
        self.biometric = biometric
        self.selection = selection
        self.device = device
    }

    /// Reads a script file.
    /// - Parameter url: The JSON file.
    /// - Throws: ``UserAgentError`` naming the file and the problem: unreadable, not JSON, a key
    ///   the format does not know, a value of the wrong type.
    public init(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try JSONSyntax.readFile(url)
        } catch {
            throw UserAgentError("\(url.path): cannot read the user agent script: \(error.localizedDescription)")
        }
        try self.init(data: data, source: url.path)
    }

    /// Reads a script from JSON bytes.
    /// - Parameters:
    ///   - data: The JSON text.
    ///   - source: What to call the script in errors, such as its file path.
    /// - Throws: ``UserAgentError`` naming `source` and the problem.
    public init(data: Data, source: String = "user agent script") throws {
        self = try UserAgentScriptParser(source: source).parse(data)
    }
}
