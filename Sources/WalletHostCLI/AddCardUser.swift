import Foundation
import Synchronization
import Wallet
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// Who answers the UI extension for `add-card` when neither `--user-agent FILE` nor
/// `--interactive` was given (``AddCardUserChoice`` decides): the person at the terminal when
/// standard input is one (as `--interactive` asks), else nobody (``UnansweredUserAgent``), which
/// ends an issuer's sign-in with a note that says how to answer it.
enum AddCardUser {
    /// The person at the terminal (standard input is one), asked as `--interactive` asks.
    /// - Parameter json: Whether stdout carries the JSON report, so prompts must not.
    static func terminal(json: Bool) -> any UserAgent {
        // Prompts go where the person sees them: stdout unless it carries JSON or is not a terminal.
        let output = !json && isatty(STDOUT_FILENO) == 1 ? STDOUT_FILENO : STDERR_FILENO
        return TerminalFallbackUserAgent(terminal: .fileDescriptors(input: STDIN_FILENO, output: output))
    }
}

/// ``InteractiveUserAgent`` that says once, at the first question, why it asks.
final class TerminalFallbackUserAgent: UserAgent {
    private let terminal: TerminalIO
    private let asking: InteractiveUserAgent
    private let introduced = Mutex(false)

    init(terminal: TerminalIO) {
        self.terminal = terminal
        asking = InteractiveUserAgent(terminal: terminal)
    }

    func prompt(_ prompt: UIPromptParams) async throws -> UIPromptResult {
        introduce()
        return try await asking.prompt(prompt)
    }

    func biometric(_ request: UIBiometricParams) async throws -> UIBiometricResult {
        introduce()
        return try await asking.biometric(request)
    }

    private func introduce() {
        let already = introduced.withLock { introduced in
            defer { introduced = true }
            return introduced
        }
        guard !already else { return }
        terminal.write("(no --user-agent FILE was given and standard input is a terminal: answering here, as --interactive does)\n")
    }
}

/// The user when nobody can answer: every prompt and biometric request fails with a message
/// naming `--user-agent FILE` and `--interactive`, and what was asked is kept for ``hint(issuer:)``.
final class UnansweredUserAgent: UserAgent {
    private struct Asked {
        var prompts: [UIPromptParams] = []
        var biometric = false
    }

    private let asked = Mutex(Asked())

    /// Whether the UI extension asked anything.
    var wasAsked: Bool { asked.withLock { !$0.prompts.isEmpty || $0.biometric } }

    static let reason = "nobody can answer: no --user-agent FILE or --interactive was given, and standard input is not a terminal"

    func prompt(_ prompt: UIPromptParams) async throws -> UIPromptResult {
        asked.withLock { $0.prompts.append(prompt) }
        throw UserAgentError("prompt \"\(prompt.title)\": \(Self.reason)")
    }

    func biometric(_ request: UIBiometricParams) async throws -> UIBiometricResult {
        asked.withLock { $0.biometric = true }
        throw UserAgentError("Face ID for \"\(request.reason)\": \(Self.reason)")
    }

    /// What to print when the UI extension asked and nobody answered: how to answer, with a
    /// user agent script made from the screens it showed (the README's example has this shape).
    /// - Parameter issuer: The bundle identifier of the issuer that asked, when known.
    func hint(issuer: String?) -> [String] {
        let asked = asked.withLock { $0 }
        guard !asked.prompts.isEmpty || asked.biometric else { return [] }
        let screens = asked.prompts.map { "\"\($0.title)\"" }.joined(separator: ", ")
        var lines = [
            "note: the issuer's UI extension asked the user (\(screens.isEmpty ? "Face ID" : screens)) and \(Self.reason).",
            "  To answer at the terminal: run the command at one, or with --interactive.",
            "  To answer from a script (CI): --user-agent FILE, a JSON file like README.md's example; for these screens:",
            "  " + Self.exampleScript(issuer: issuer, prompts: asked.prompts, biometric: asked.biometric),
            "  (every key: docs/CLI.md, \"The user agent\")",
        ]
        if screens.isEmpty { lines[0] = "note: the issuer's UI extension asked for Face ID and \(Self.reason)." }
        return lines
    }

    /// `{"issuer": ..., "answers": [{"action": "Log In", "values": {"username": "...", ...}}], "biometric": ["match"]}`.
    static func exampleScript(issuer: String?, prompts: [UIPromptParams], biometric: Bool) -> String {
        var parts: [String] = []
        if let issuer { parts.append("\"issuer\": \(quoted(issuer))") }
        let answers = prompts.map { prompt -> String in
            let action = prompt.actions.first { $0.lowercased() != "cancel" } ?? prompt.actions.first ?? "OK"
            let values = prompt.fields.map { "\(quoted($0.name)): \"...\"" }.joined(separator: ", ")
            return "{\"action\": \(quoted(action))" + (values.isEmpty ? "" : ", \"values\": {\(values)}") + "}"
        }
        if !answers.isEmpty { parts.append("\"answers\": [\(answers.joined(separator: ", "))]") }
        // Only for a Face ID request seen: an answer the extension never asks for is reported as not used.
        if biometric { parts.append("\"biometric\": [\"match\"]") }
        return "{" + parts.joined(separator: ", ") + "}"
    }

    private static func quoted(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
