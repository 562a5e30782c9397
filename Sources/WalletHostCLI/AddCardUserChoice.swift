import Foundation
import Wallet
#if canImport(Glibc)
import Glibc
#endif

/// The user of one `add-card` run, as the command line chose it: who answers the UI extension,
/// what the user decided beforehand (a script's `issuer`, `select` and `device`, as data the flow
/// is given), and the concrete agent kept for the notes printed at the end. No one downcasts the
/// agent to learn any of this, so the recorders wrapped around it lose nothing.
struct AddCardUserChoice: Sendable {
    /// Who answers the UI extension's prompts and biometric requests.
    let agent: any UserAgent
    /// What the user states before any screen; the command line's flags win over these.
    let preferences: UserPreferences
    /// The script's player, when `--user-agent FILE` was given (for its ran-out and unused notes).
    let scripted: ScriptedUserAgent?
    /// The agent that answers nothing, when nobody can answer (for its hint on how to answer).
    let unanswered: UnansweredUserAgent?
    /// With `--interactive`: where Wallet's lists (banks, cards) are asked when the command line
    /// chose none (``AddCardChooser``).
    var chooser: AddCardChooser? = nil

    /// The user `--user-agent FILE`, `--interactive` or neither asks for.
    /// - Parameters:
    ///   - userAgentFile: The script to play, if given.
    ///   - interactive: Whether `--interactive` was given.
    ///   - json: Whether stdout carries the JSON report, so prompts must not.
    /// - Throws: ``UserAgentError`` naming the script file and its problem.
    static func choose(userAgentFile: URL?, interactive: Bool, json: Bool) throws -> AddCardUserChoice {
        if let userAgentFile {
            let script = try UserAgentScript(contentsOf: userAgentFile)
            let scripted = ScriptedUserAgent(script: script)
            return AddCardUserChoice(agent: scripted, preferences: script.preferences, scripted: scripted, unanswered: nil)
        }
        if interactive {
            // With --json, prompts go to stderr so that stdout stays one JSON document.
            let terminal: TerminalIO = json ? .fileDescriptors(input: STDIN_FILENO, output: STDERR_FILENO) : .standard
            return AddCardUserChoice(agent: InteractiveUserAgent(terminal: terminal), preferences: UserPreferences(), scripted: nil,
                                     unanswered: nil, chooser: AddCardChooser(terminal: terminal))
        }
        // The person at the terminal, else nobody: an issuer's sign-in then ends with a note on how to answer it.
        guard isatty(STDIN_FILENO) == 1 else {
            let nobody = UnansweredUserAgent()
            return AddCardUserChoice(agent: nobody, preferences: UserPreferences(), scripted: nil, unanswered: nobody)
        }
        return AddCardUserChoice(agent: AddCardUser.terminal(json: json), preferences: UserPreferences(), scripted: nil,
                                 unanswered: nil)
    }

    /// The notes on the user to print after the flow: how to answer when nobody could, what a
    /// script left unused.
    /// - Parameter issuer: The bundle identifier of the issuer the flow picked, when known.
    func notes(issuer: String?) -> [String] {
        var notes = unanswered?.hint(issuer: issuer) ?? []
        if let scripted {
            if scripted.ranOut { notes.append("note: the user agent script ran out of answers") }
            if scripted.unusedAnswers > 0 { notes.append("note: \(scripted.unusedAnswers) scripted answer(s) were not used") }
        }
        return notes
    }
}
