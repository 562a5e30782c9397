import Foundation
import Testing
import WalletWire

/// Issue 33, bug 1: leaving the sheet is an answer of its own on the wire, not a button.
@Suite("ui.prompt dismissal on the wire")
struct UIPromptDismissalTests {
    @Test("{\"dismissed\": true} decodes without an action, and encodes back the same")
    func dismissalRoundTrips() throws {
        let wire = #"{"dismissed":true,"values":{}}"#
        let decoded = try JSONDecoder().decode(UIPromptResult.self, from: Data(wire.utf8))
        #expect(decoded.dismissed && decoded.action.isEmpty)
        #expect(decoded == .dismissal())
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(decoded), as: UTF8.self) == wire)
    }

    @Test("a chosen action stays as it was: no dismissed key, and an answer without action is refused")
    func actionUnchanged() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let chosen = UIPromptResult(action: "Continuar", values: ["pin": "1"])
        #expect(String(decoding: try encoder.encode(chosen), as: UTF8.self) == #"{"action":"Continuar","values":{"pin":"1"}}"#)
        #expect(!chosen.dismissed)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(UIPromptResult.self, from: Data(#"{"values":{}}"#.utf8)) }
    }
}
