import Foundation
import Synchronization
import Testing
import Wallet
import WalletWire

/// A terminal that replays typed lines and records what was written and which reads were hidden.
final class FakeTerminal: Sendable {
    private struct State {
        var lines: [String]
        var output = ""
        var hiddenReads: [Bool] = []
    }

    private let state: Mutex<State>

    init(_ lines: [String]) {
        state = Mutex(State(lines: lines))
    }

    var io: TerminalIO {
        TerminalIO(
            readLine: { hidden in
                self.state.withLock { state in
                    state.hiddenReads.append(hidden)
                    return state.lines.isEmpty ? nil : state.lines.removeFirst()
                }
            },
            write: { text in self.state.withLock { $0.output += text } }
        )
    }

    var output: String { state.withLock { $0.output } }
    var hiddenReads: [Bool] { state.withLock { $0.hiddenReads } }
}

@Suite("Interactive user agent")
struct InteractiveUserAgentTests {
    static let signIn = ScriptedUserAgentTests.signIn

    @Test("a prompt shows title, message, fields and numbered actions; secure fields are read hidden")
    func prompt() async throws {
        let terminal = FakeTerminal(["jane", "correct horse", "1"])
        let result = try await InteractiveUserAgent(terminal: terminal.io).prompt(Self.signIn)
        #expect(result == UIPromptResult(action: "Log In", values: ["username": "jane", "password": "correct horse"]))
        #expect(terminal.hiddenReads == [false, true, false])
        #expect(terminal.output == "\nSign in to Example Bank\nSign in to add your cards.\n"
                + "User name: Password:   1) Log In\n  2) Cancel\nChoose 1-2: ")
    }

    @Test("an action is chosen by name too, ignoring case; a reply that names none asks again")
    func chooseByNameAfterRetry() async throws {
        let terminal = FakeTerminal(["jane", "pw", "7", "", "  cancel "])
        let result = try await InteractiveUserAgent(terminal: terminal.io).prompt(Self.signIn)
        #expect(result.action == "Cancel")
        #expect(terminal.output.components(separatedBy: "Type a number from 1-2 or the name of an action.").count == 3)
    }

    @Test("input that ends cancels a prompt that offers Cancel")
    func endOfInputCancels() async throws {
        let terminal = FakeTerminal(["jane"])
        let result = try await InteractiveUserAgent(terminal: terminal.io).prompt(Self.signIn)
        #expect(result == UIPromptResult(action: "Cancel", values: ["username": "", "password": ""]))
        #expect(terminal.output.hasSuffix("(input ended: Cancel)\n"))
    }

    /// Issue 33, bug 1: input that ended on a screen without Cancel was an error, and the screen hung.
    @Test("input that ends leaves the sheet of a prompt without Cancel")
    func endOfInputWithoutCancel() async throws {
        let terminal = FakeTerminal([])
        let result = try await InteractiveUserAgent(terminal: terminal.io).prompt(ScriptedUserAgentTests.confirm)
        #expect(result.dismissed)
        #expect(terminal.output.hasSuffix("(input ended: leaving the sheet)\n"))
    }

    @Test("0 or dismiss leaves the sheet, whatever its buttons; a screen without buttons offers only that")
    func dismissByTyping() async throws {
        let spanish = UIPromptParams(title: "Agregar", fields: [.init(name: "pin", label: "PIN")], actions: ["Continuar", "Cancelar"])
        let typedZero = try await InteractiveUserAgent(terminal: FakeTerminal(["1234", "0"]).io).prompt(spanish)
        #expect(typedZero == .dismissal(values: ["pin": "1234"]))
        let terminal = FakeTerminal(["Dismiss"])
        let bare = try await InteractiveUserAgent(terminal: terminal.io)
            .prompt(UIPromptParams(title: "Nothing to press", fields: [], actions: []))
        #expect(bare.dismissed)
        #expect(terminal.output == "\nNothing to press\n  0) leave the sheet\nChoose 0: ")
    }

    @Test("biometric asks like the Simulator's Face ID menu", arguments: [
        (["m"], true), (["match"], true), (["n"], false), (["No Match"], false), (["maybe", "M"], true), ([], false),
    ])
    func biometric(lines: [String], success: Bool) async throws {
        let terminal = FakeTerminal(lines)
        let result = try await InteractiveUserAgent(terminal: terminal.io).biometric(UIBiometricParams(reason: "adding a card"))
        #expect(result.success == success)
        #expect(terminal.output.hasPrefix("Face ID for adding a card: [m]atch / [n]o match? "))
        #expect(terminal.hiddenReads.allSatisfy { !$0 })
    }

    @Test("prompts from concurrent requests do not interleave on the terminal")
    func oneAtATime() async throws {
        let terminal = FakeTerminal(["a", "1", "b", "1"])
        let agent = InteractiveUserAgent(terminal: terminal.io)
        let form = UIPromptParams(title: "Name", fields: [.init(name: "name", label: "Name")], actions: ["OK"])
        async let first = agent.prompt(form)
        async let second = agent.prompt(form)
        let names = try await Set([first.values["name"], second.values["name"]])
        #expect(names == ["a", "b"])
        #expect(terminal.output == String(repeating: "\nName\nName:   1) OK\nChoose 1: ", count: 2))
    }
}
