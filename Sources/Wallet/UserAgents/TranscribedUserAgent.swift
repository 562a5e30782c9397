import WalletWire

/// A user agent that writes each screen the UI extension shows, and the user's choice, as a
/// line of the human transcript, then lets `next` answer.
public struct TranscribedUserAgent: UserAgent {
    private let next: any UserAgent
    private let line: @Sendable (String) -> Void

    /// Answers with `next`, writing each screen to `line`.
    public init(_ next: any UserAgent, line: @escaping @Sendable (String) -> Void) {
        self.next = next
        self.line = line
    }

    public func prompt(_ prompt: UIPromptParams) async throws -> UIPromptResult {
        do {
            let answer = try await next.prompt(prompt)
            line(Self.describe(prompt) + " -> " + (answer.dismissed ? "left the sheet (dismissed)" : answer.action))
            return answer
        } catch {
            line(Self.describe(prompt) + " -> no answer (\(error))")
            throw error
        }
    }

    public func biometric(_ request: UIBiometricParams) async throws -> UIBiometricResult {
        try await next.biometric(request)
    }

    /// `Screen "Title": "line" "line" · fields a, b (secure) · actions [Log In] [Cancel]`.
    static func describe(_ prompt: UIPromptParams) -> String {
        var parts = ["Screen \"\(prompt.title)\""]
        if let message = prompt.message, !message.isEmpty {
            parts[0] += ": " + message.split(separator: "\n").map { "\"\($0)\"" }.joined(separator: " ")
        }
        if !prompt.fields.isEmpty {
            parts.append("fields " + prompt.fields.map { $0.secure ? "\($0.name) (secure)" : $0.name }.joined(separator: ", "))
        }
        parts.append("actions " + prompt.actions.map { "[\($0)]" }.joined(separator: " "))
        return parts.joined(separator: " · ")
    }
}

extension RecordingUserAgent {
    /// The screens shown so far, for the report (`FlowReport.screens`); nil when there were none.
    public var screens: [FlowScreen]? {
        let screens = exchanges.compactMap { exchange -> FlowScreen? in
            guard case .prompt(let prompt, let answer) = exchange else { return nil }
            return FlowScreen(prompt, chosen: answer.map { $0.dismissed ? "(dismissed)" : $0.action })
        }
        return screens.isEmpty ? nil : screens
    }
}
