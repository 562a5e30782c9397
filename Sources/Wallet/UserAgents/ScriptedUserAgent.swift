import Foundation
import Synchronization
import WalletWire

/// A user agent that answers from a ``UserAgentScript``, for CI: prompts with the script's
/// `answers` in order, biometric requests with its `biometric` results in order.
///
/// An answer `{"dismiss": true}` leaves the sheet (Wallet's dismissal). When the script runs
/// out, a prompt that offers a `Cancel` action gets `Cancel`, one that does not ("Cancelar",
/// a close icon, no cancel at all) is left by dismissing the sheet, and ``ranOut`` becomes true. A biometric
/// request gets "no match". A scripted action the prompt does not offer, or a value for a field
/// the prompt does not have, is an error naming both.
///
/// Every prompt and answer goes into ``transcript``, with the values of secure fields masked.
/// Safe to use from concurrent requests: answers are handed out under a lock.
public final class ScriptedUserAgent: UserAgent {
    /// The script being played.
    public let script: UserAgentScript

    private struct State {
        var nextAnswer = 0
        var nextBiometric = 0
        var ranOut = false
        var transcript: [String] = []
    }

    private let state = Mutex(State())

    /// The text that stands for a secure field's value in the transcript, whatever its length.
    public static let mask = "********"

    /// Creates an agent playing `script`.
    public init(script: UserAgentScript) {
        self.script = script
    }

    /// Creates an agent from a script file.
    /// - Parameter url: The JSON script.
    /// - Throws: ``UserAgentError`` naming the file and the problem.
    public convenience init(contentsOf url: URL) throws {
        self.init(script: try UserAgentScript(contentsOf: url))
    }

    /// Creates an agent from script JSON.
    /// - Parameters:
    ///   - data: The JSON text.
    ///   - source: What to call the script in errors.
    /// - Throws: ``UserAgentError`` naming `source` and the problem.
    public convenience init(data: Data, source: String = "user agent script") throws {
        self.init(script: try UserAgentScript(data: data, source: source))
    }

    /// The issuer the script picks, if any.
    public var issuer: String? { script.issuer }
    /// The entries the script selects, if it says.
    public var selection: EntrySelection? { script.selection }
    /// The device the script adds to, if it says.
    public var device: DeviceKind? { script.device }

    /// One line per prompt and biometric request so far, with what was answered; secure values masked.
    public var transcript: [String] { state.withLock { $0.transcript } }
    /// Whether a prompt found the answers used up and was cancelled (or its sheet left).
    public var ranOut: Bool { state.withLock { $0.ranOut } }
    /// How many scripted prompt answers have not been used (yet).
    public var unusedAnswers: Int { state.withLock { script.answers.count - $0.nextAnswer } }
    /// How many scripted biometric results have not been used (yet).
    public var unusedBiometricResults: Int { state.withLock { script.biometric.count - $0.nextBiometric } }

    /// Answers a prompt with the next scripted answer.
    /// - Parameter prompt: The form the UI extension shows.
    /// - Returns: The scripted action and values, or a dismissal; once the script has run out,
    ///   `Cancel` when the prompt offers it, else a dismissal.
    /// - Throws: ``UserAgentError`` when the scripted action is not one of the prompt's, or a
    ///   value names no field of the prompt.
    public func prompt(_ prompt: UIPromptParams) async throws -> UIPromptResult {
        try state.withLock { state in
            let heading = "prompt \"\(prompt.title)\""
            let scriptUsedUp = state.nextAnswer >= script.answers.count
            do {
                let result = try answer(prompt, state: &state)
                let note = scriptUsedUp ? "no scripted answer left: " : ""
                state.transcript.append("\(heading): \(note)\(Self.describe(result, for: prompt))")
                return result
            } catch let error as UserAgentError {
                state.transcript.append("\(heading): error: \(error.description)")
                throw error
            }
        }
    }

    /// Answers a biometric request with the next scripted result, or "no match" when there is none.
    /// - Parameter request: Why the extension asks.
    /// - Returns: `success` true for `match`.
    public func biometric(_ request: UIBiometricParams) async throws -> UIBiometricResult {
        state.withLock { state in
            let heading = "biometric \"\(request.reason)\""
            guard state.nextBiometric < script.biometric.count else {
                state.transcript.append("\(heading): no scripted result left: no match")
                return UIBiometricResult(success: false)
            }
            let result = script.biometric[state.nextBiometric]
            state.nextBiometric += 1
            state.transcript.append("\(heading): \(result == .match ? "match" : "no match")")
            return UIBiometricResult(success: result == .match)
        }
    }

    private func answer(_ prompt: UIPromptParams, state: inout State) throws -> UIPromptResult {
        let offered = prompt.actions.map { "\"\($0)\"" }.joined(separator: ", ")
        guard state.nextAnswer < script.answers.count else {
            state.ranOut = true
            let empty = Dictionary(uniqueKeysWithValues: prompt.fields.map { ($0.name, "") })
            guard let cancel = prompt.actions.first(where: { $0 == "Cancel" })
                    ?? prompt.actions.first(where: { $0.lowercased() == "cancel" }) else {
                // No Cancel ("Cancelar", a close icon, none at all): the user leaves the sheet.
                return .dismissal(values: empty)
            }
            return UIPromptResult(action: cancel, values: empty)
        }
        let number = state.nextAnswer
        let scripted = script.answers[number]
        state.nextAnswer += 1
        if scripted.dismiss { return .dismissal(values: Dictionary(uniqueKeysWithValues: prompt.fields.map { ($0.name, "") })) }
        guard prompt.actions.contains(scripted.action) else {
            throw UserAgentError("answers[\(number)] chooses \"\(scripted.action)\", but prompt \"\(prompt.title)\" offers \(offered)")
        }
        let names = Set(prompt.fields.map(\.name))
        if let stray = scripted.values.keys.sorted().first(where: { !names.contains($0) }) {
            let fields = prompt.fields.map { "\"\($0.name)\"" }.joined(separator: ", ")
            throw UserAgentError("answers[\(number)] has a value for \"\(stray)\", but prompt \"\(prompt.title)\" "
                                 + (fields.isEmpty ? "has no fields" : "has the fields \(fields)"))
        }
        var values = scripted.values
        for field in prompt.fields where values[field.name] == nil { values[field.name] = "" }
        return UIPromptResult(action: scripted.action, values: values)
    }

    private static func describe(_ result: UIPromptResult, for prompt: UIPromptParams) -> String {
        let fields = prompt.fields.map { field in
            "\(field.name)=" + (field.secure ? mask : "\"\(result.values[field.name] ?? "")\"")
        }
        let chosen = result.dismissed ? "left the sheet (dismissed)" : result.action
        return fields.isEmpty || result.dismissed ? chosen : "\(chosen) (\(fields.joined(separator: ", ")))"
    }
}
