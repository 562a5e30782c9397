import Foundation
import Testing
import Wallet
import WalletTestSupport
import WalletWire

@Suite("Scripted user agent")
struct ScriptedUserAgentTests {
    static let signIn = UIPromptParams(title: "Sign in to Example Bank", message: "Sign in to add your cards.",
                                       fields: [.init(name: "username", label: "User name"),
                                                .init(name: "password", label: "Password", secure: true)],
                                       actions: ["Log In", "Cancel"])
    static let confirm = UIPromptParams(title: "Confirm", fields: [], actions: ["OK"])

    private func agent(_ json: String) throws -> ScriptedUserAgent {
        try ScriptedUserAgent(data: Data(json.utf8), source: "test.json")
    }

    private func scriptError(_ json: String) -> String? {
        do {
            _ = try agent(json)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("every key of the format is read")
    func fullScript() throws {
        let agent = try agent("""
            {"issuer": "com.example.bank", "answers": [{"action": "Log In", "values": {"username": "jane"}}],
             "biometric": ["match", "nomatch"], "select": ["card-1", "card-2"], "device": "watch"}
            """)
        #expect(agent.issuer == "com.example.bank")
        #expect(agent.selection == .identifiers(["card-1", "card-2"]))
        #expect(agent.device == .watch)
        #expect(agent.script.answers == [UserAgentScript.Answer(action: "Log In", values: ["username": "jane"])])
        #expect(agent.script.biometric == [.match, .nomatch])
        #expect(try self.agent(#"{"select": "all"}"#).selection == .all)
        #expect(try self.agent("{}").selection == nil)
    }

    @Test("answers and biometric results are used in order")
    func inOrder() async throws {
        let agent = try agent("""
            {"answers": [{"action": "Log In", "values": {"username": "jane", "password": "wrong"}},
                         {"action": "Log In", "values": {"username": "jane", "password": "right"}},
                         {"action": "OK"}],
             "biometric": ["nomatch", "match"]}
            """)
        #expect(try await agent.prompt(Self.signIn).values["password"] == "wrong")
        #expect(try await agent.biometric(UIBiometricParams(reason: "add a card")).success == false)
        #expect(try await agent.prompt(Self.signIn) == UIPromptResult(action: "Log In", values: ["username": "jane", "password": "right"]))
        #expect(try await agent.biometric(UIBiometricParams(reason: "add a card")).success == true)
        #expect(try await agent.prompt(Self.confirm) == UIPromptResult(action: "OK", values: [:]))
        #expect(agent.unusedAnswers == 0 && agent.unusedBiometricResults == 0)
        #expect(!agent.ranOut)
    }

    @Test("a field the answer leaves out comes back empty")
    func missingValue() async throws {
        let agent = try agent(#"{"answers": [{"action": "Log In", "values": {"username": "jane"}}]}"#)
        #expect(try await agent.prompt(Self.signIn).values == ["username": "jane", "password": ""])
    }

    @Test("out of answers: Cancel when offered, recorded as running out")
    func runOutWithCancel() async throws {
        let agent = try agent(#"{"answers": []}"#)
        let result = try await agent.prompt(Self.signIn)
        #expect(result.action == "Cancel")
        #expect(agent.ranOut)
        #expect(agent.transcript.last?.contains("no scripted answer left") == true)
    }

    /// Issue 33, bug 1: this was an error ("offers ... and no Cancel"), and the screen hung.
    @Test("out of answers without Cancel (\"Cancelar\", no cancel at all): the user leaves the sheet")
    func runOutWithoutCancel() async throws {
        let agent = try agent("{}")
        let spanish = UIPromptParams(title: "Iniciar sesión", fields: [.init(name: "usuario", label: "Usuario")],
                                     actions: ["Log In", "Cancelar"])
        #expect(try await agent.prompt(spanish) == .dismissal(values: ["usuario": ""]))
        #expect(try await agent.prompt(Self.confirm).dismissed)
        #expect(agent.ranOut)
        #expect(agent.transcript.last == "prompt \"Confirm\": no scripted answer left: left the sheet (dismissed)")
    }

    @Test("a scripted {\"dismiss\": true} leaves the sheet, whatever its buttons")
    func scriptedDismissal() async throws {
        let agent = try agent(#"{"answers": [{"dismiss": true}, {"action": "OK"}]}"#)
        #expect(agent.script.answers.first == .dismissal)
        let result = try await agent.prompt(Self.signIn)
        #expect(result.dismissed && result.values == ["username": "", "password": ""])
        #expect(try await agent.prompt(Self.confirm) == UIPromptResult(action: "OK", values: [:]))
        #expect(!agent.ranOut)
        #expect(scriptError(#"{"answers": [{"dismiss": true, "action": "OK"}]}"#)?.contains("not both") == true)
        #expect(scriptError(#"{"answers": [{"dismiss": "yes"}]}"#)?.contains("answers[0].dismiss: expected true or false") == true)
    }

    @Test("out of biometric results: no match")
    func runOutBiometric() async throws {
        let agent = try agent(#"{"biometric": ["match"]}"#)
        #expect(try await agent.biometric(UIBiometricParams(reason: "r")).success)
        #expect(try await agent.biometric(UIBiometricParams(reason: "r")).success == false)
        #expect(agent.transcript.last == "biometric \"r\": no scripted result left: no match")
    }

    @Test("an action the prompt does not offer is an error naming both")
    func wrongAction() async throws {
        let agent = try agent(#"{"answers": [{"action": "Sign In"}]}"#)
        do {
            _ = try await agent.prompt(Self.signIn)
            Issue.record("an action the prompt does not offer must fail")
        } catch let error as UserAgentError {
            #expect(error.description.contains("\"Sign In\""))
            #expect(error.description.contains("\"Log In\", \"Cancel\""))
            #expect(error.description.contains("Sign in to Example Bank"))
        }
        #expect(agent.transcript.last?.contains("error:") == true)
    }

    @Test("a value for a field the prompt does not have is an error naming it")
    func strayValue() async throws {
        let agent = try agent(#"{"answers": [{"action": "Log In", "values": {"usename": "jane"}}]}"#)
        await #expect(throws: UserAgentError.self) { try await agent.prompt(Self.signIn) }
        #expect(agent.transcript.last?.contains("\"usename\"") == true)
    }

    @Test("an unknown key is an error naming the key and the file", arguments: [
        (#"{"answer": []}"#, "\"answer\""),
        (#"{"answers": [{"action": "OK", "valeus": {}}]}"#, "answers[0]: unknown key \"valeus\""),
    ])
    func unknownKey(json: String, expected: String) {
        let message = scriptError(json)
        #expect(message?.hasPrefix("test.json: ") == true, "\(message ?? "no error")")
        #expect(message?.contains(expected) == true, "\(message ?? "no error")")
    }

    @Test("a malformed file is an error naming the file and the problem", arguments: [
        (#"{"answers": [}"#, "not valid JSON"),
        ("[]", "expected an object, found a list"),
        (#"{"answers": [{"values": {}}]}"#, "answers[0]: missing \"action\""),
        (#"{"answers": [{"action": "OK", "values": {"pin": 1234}}]}"#, "answers[0].values.pin: expected a string, found a number"),
        (#"{"biometric": ["yes"]}"#, "biometric[0]: \"yes\" is not a biometric result"),
        (#"{"select": "some"}"#, "select: \"some\" is not a selection"),
        (#"{"select": 3}"#, "select: expected \"all\" or a list"),
        (#"{"device": "ipad"}"#, "device: \"ipad\" is not a device"),
        (#"{"issuer": true}"#, "issuer: expected a string, found a boolean"),
    ])
    func malformed(json: String, expected: String) {
        let message = scriptError(json)
        #expect(message?.hasPrefix("test.json: ") == true, "\(message ?? "no error")")
        #expect(message?.contains(expected) == true, "\(message ?? "no error")")
    }

    @Test("a script file is read from disk; a missing one is an error naming it")
    func fromFile() throws {
        let url = TemporaryDirectory.uniqueURL(prefix: "wallet-host-script").appendingPathExtension("json")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(#"{"issuer": "com.example.bank", "slect": "all"}"#.utf8).write(to: url)
        do {
            _ = try ScriptedUserAgent(contentsOf: url)
            Issue.record("the typo must be reported")
        } catch {
            #expect("\(error)" == "\(url.path): unknown key \"slect\" (known keys: issuer, answers, biometric, select, device)")
        }
        try Data(#"{"issuer": "com.example.bank"}"#.utf8).write(to: url)
        #expect(try ScriptedUserAgent(contentsOf: url).issuer == "com.example.bank")
        let missing = url.appendingPathExtension("missing")
        #expect(throws: UserAgentError.self) { try ScriptedUserAgent(contentsOf: missing) }
    }

    @Test("the transcript shows every prompt and answer, secure values masked")
    func transcript() async throws {
        let agent = try agent("""
            {"answers": [{"action": "Log In", "values": {"username": "jane", "password": "correct horse"}}],
             "biometric": ["match"]}
            """)
        _ = try await agent.prompt(Self.signIn)
        _ = try await agent.biometric(UIBiometricParams(reason: "Confirm it is you"))
        _ = try await agent.prompt(Self.signIn)
        #expect(agent.transcript == [
            "prompt \"Sign in to Example Bank\": Log In (username=\"jane\", password=********)",
            "biometric \"Confirm it is you\": match",
            "prompt \"Sign in to Example Bank\": no scripted answer left: Cancel (username=\"\", password=********)",
        ])
        #expect(!agent.transcript.joined().contains("correct horse"))
    }

    @Test("concurrent prompts each get a different answer")
    func concurrent() async throws {
        let answers = (0..<50).map { #"{"action": "Log In", "values": {"username": "user\#($0)"}}"# }.joined(separator: ",")
        let agent = try agent(#"{"answers": [\#(answers)]}"#)
        let names = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 { group.addTask { try await agent.prompt(Self.signIn).values["username"] ?? "" } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(names.count == 50)
        #expect(agent.unusedAnswers == 0)
    }
}
