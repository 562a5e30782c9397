import Dispatch
import Foundation
import WalletWire

/// A user agent that asks a person at a terminal.
///
/// A prompt prints its title and message, asks each field by its label (secure fields without
/// echo, see ``TerminalIO/fileDescriptors(input:output:)``), lists the actions numbered and
/// reads a choice, by number or by name; `0` (or `dismiss`) leaves the sheet, as swiping it down
/// does on a device, whatever buttons the screen has. A biometric request asks
/// `Face ID for <reason>: [m]atch / [n]o match?`, like the iOS Simulator's Face ID menu.
///
/// When input ends (Ctrl-D, or the end of piped input), a prompt that offers `Cancel` is
/// cancelled, one that does not is dismissed, and a biometric request gets "no match". Requests are answered one at a time, on a thread of their own, so a person
/// taking their time blocks neither the host's other work nor Swift's cooperative threads.
public final class InteractiveUserAgent: UserAgent {
    private let terminal: TerminalIO
    private let queue = DispatchQueue(label: "wallet-host.interactive-user-agent")

    /// Creates an agent.
    /// - Parameter terminal: Where to ask; the process's stdin and stdout by default.
    public init(terminal: TerminalIO = .standard) {
        self.terminal = terminal
    }

    /// Asks the user to fill in a form and choose an action.
    /// - Parameter prompt: The form the UI extension shows.
    /// - Returns: The chosen action and the text entered for every field, or a dismissal.
    /// - Throws: ``UserAgentError`` when the terminal cannot be read.
    public func prompt(_ prompt: UIPromptParams) async throws -> UIPromptResult {
        try await onTerminal { try self.ask(prompt) }
    }

    /// Asks the user whether their face matches.
    /// - Parameter request: Why the extension asks.
    /// - Returns: `success` true when the user answers match.
    public func biometric(_ request: UIBiometricParams) async throws -> UIBiometricResult {
        try await onTerminal { try self.askBiometric(request) }
    }

    private func onTerminal<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Swift.Result { try body() }) }
        }
    }

    private func ask(_ prompt: UIPromptParams) throws -> UIPromptResult {
        terminal.write("\n\(prompt.title)\n")
        if let message = prompt.message, !message.isEmpty { terminal.write("\(message)\n") }
        var values: [String: String] = [:]
        for field in prompt.fields {
            terminal.write("\(field.label): ")
            guard let line = try terminal.readLine(field.secure) else { return inputEnded(prompt) }
            values[field.name] = line
        }
        for (number, action) in prompt.actions.enumerated() {
            terminal.write("  \(number + 1)) \(action)\n")
        }
        // 0 leaves the sheet: offered in the hint, listed only when the screen has no button.
        if prompt.actions.isEmpty { terminal.write("  0) leave the sheet\n") }
        let range = prompt.actions.count <= 1 ? "\(prompt.actions.count)" : "1-\(prompt.actions.count)"
        while true {
            terminal.write("Choose \(range): ")
            guard let line = try terminal.readLine(false) else { return inputEnded(prompt) }
            if let action = Self.action(named: line, in: prompt.actions) {
                return UIPromptResult(action: action, values: values)
            }
            if ["0", "dismiss"].contains(line.trimmingCharacters(in: .whitespaces).lowercased()) {
                return .dismissal(values: values)
            }
            terminal.write("Type a number from \(range) or the name of an action. 0 (or dismiss) leaves the sheet.\n")
        }
    }

    /// The action a reply names: its number, or its title ignoring case and surrounding spaces.
    private static func action(named reply: String, in actions: [String]) -> String? {
        let reply = reply.trimmingCharacters(in: .whitespaces)
        if let number = Int(reply), actions.indices.contains(number - 1) { return actions[number - 1] }
        return actions.first { $0.lowercased() == reply.lowercased() }
    }

    private func inputEnded(_ prompt: UIPromptParams) -> UIPromptResult {
        terminal.write("\n")
        let empty = Dictionary(uniqueKeysWithValues: prompt.fields.map { ($0.name, "") })
        guard let cancel = prompt.actions.first(where: { $0.lowercased() == "cancel" }) else {
            terminal.write("(input ended: leaving the sheet)\n")
            return .dismissal(values: empty)
        }
        terminal.write("(input ended: \(cancel))\n")
        return UIPromptResult(action: cancel, values: empty)
    }

    private func askBiometric(_ request: UIBiometricParams) throws -> UIBiometricResult {
        while true {
            terminal.write("Face ID for \(request.reason): [m]atch / [n]o match? ")
            guard let line = try terminal.readLine(false) else {
                terminal.write("\n(input ended: no match)\n")
                return UIBiometricResult(success: false)
            }
            switch line.trimmingCharacters(in: .whitespaces).lowercased() {
            case "m", "match": return UIBiometricResult(success: true)
            case "n", "no", "nomatch", "no match": return UIBiometricResult(success: false)
            default: terminal.write("Type m for a matching face or n for a non-matching one.\n")
            }
        }
    }
}
