import Foundation
import Testing
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 31, break 11: an extension's strings reached the operator's terminal raw: ESC, BEL and CR
/// in an error message or a stderr line set the terminal's title, wrote its clipboard (OSC 52) and
/// printed "PASSED" over "FAILED". The human output shows them escaped (`\u{1B}`); `--json` keeps
/// the exact text.
@Suite("Extension strings on the terminal: control characters escaped, JSON exact", .serialized, .timeLimit(.minutes(3)),
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
struct TerminalEscapeTests {
    /// The title sequence, a clipboard write, a carriage return over "FAILED", a C1 CSI and DEL.
    static let hostileText = "title\u{1B}]0;pwned-title\u{7} clip\u{1B}]52;c;ZWNobyBwd25lZA==\u{7} FAILED\rPASSED csi\u{9B}2J del\u{7F}"

    /// A minimal handler (docs/PROTOCOL.md, section 14) whose status writes the hostile text on
    /// stderr and fails with it as its error message.
    static let hostileScript = #"""
        #!/usr/bin/python3
        import json, os, sys
        HOSTILE = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "hostile.json")))
        incoming, outgoing = os.fdopen(3, "rb"), os.fdopen(4, "wb", buffering=0)
        def send(message):
            outgoing.write(json.dumps({"jsonrpc": "2.0", **message}, separators=(",", ":")).encode() + b"\n")
        for raw in incoming:
            message = json.loads(raw)
            method, request_id, params = message.get("method"), message.get("id"), message.get("params") or {}
            if method == "exit":
                sys.exit(0)
            if method is None or request_id is None:
                continue
            if method == "initialize":
                send({"id": request_id, "result": {"protocolVersion": 1, "methods": ["status"], "runtime": {"name": "hostile", "version": "1"}}})
            elif method == "status":
                sys.stderr.write(HOSTILE + "\n")
                sys.stderr.flush()
                if os.path.exists(os.path.join(os.path.dirname(os.path.abspath(__file__)), "crash")):
                    os._exit(3)
                send({"id": request_id, "error": {"code": -32000, "message": HOSTILE}})
            elif method == "shutdown":
                send({"id": request_id, "result": None})
            else:
                send({"id": request_id, "error": {"code": -32601, "message": "not implemented"}})
        """#

    /// - Parameter crash: the status call exits (status 3) after its stderr line, without answering.
    static func hostileBundle(crash: Bool = false) throws -> URL {
        let appex = try ExampleBundles.testHelper(mode: "normal")
        let path = appex.appendingPathComponent("TestHelperExt")
        try FileManager.default.removeItem(at: path)
        try Data(hostileScript.utf8).write(to: path)
        _ = chmod(path.path, 0o755)
        let encoded = try JSONSerialization.data(withJSONObject: [hostileText], options: [])
        // The string alone, as JSON: the script reads it beside itself.
        let text = String(decoding: encoded, as: UTF8.self).dropFirst().dropLast()
        try Data(text.utf8).write(to: appex.appendingPathComponent("hostile.json"))
        if crash { try Data().write(to: appex.appendingPathComponent("crash")) }
        return appex
    }

    /// Every character a terminal would act on: C0 but tab and line feed, DEL, C1.
    static func rawControls(in text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            let value = scalar.value
            return (value < 0x20 && value != 0x09 && value != 0x0A) || value == 0x7F || (0x80...0x9F).contains(value)
        }.map { String(format: "U+%04X", $0.value) }
    }

    /// Runs `arguments` and checks the human output: nothing raw, the sequences shown escaped.
    func expectEscaped(_ arguments: [String], mentions: Int = 1) throws {
        let run = try WalletHostCommand.run(arguments)
        let printed = run.standardOutput + run.standardError
        #expect(Self.rawControls(in: printed).isEmpty, "raw control characters \(Self.rawControls(in: printed)) in \(printed.debugDescription)")
        #expect(printed.contains(#"title\u{1B}]0;pwned-title\u{7}"#), "\(printed)")
        #expect(printed.contains(#"FAILED\u{D}PASSED csi\u{9B}2J del\u{7F}"#), "\(printed)")
    }

    @Test("call: the error message and the stderr line it relays are escaped; --json keeps them exact")
    func call() throws {
        let appex = try Self.hostileBundle()
        defer { try? FileManager.default.removeItem(at: appex.deletingLastPathComponent().deletingLastPathComponent()) }
        let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-escape")
        defer { try? FileManager.default.removeItem(at: state) }
        let arguments = ["call", appex.path, "status", "--state", state.path, "--deadline", "status=20s"]
        try expectEscaped(arguments)

        let json = try WalletHostCommand.run(arguments + ["--json"])
        let object = try json.json()
        let error = try #require(object["error"] as? [String: Any], "\(json.standardOutput)")
        #expect(error["message"] as? String == Self.hostileText, "\(error)")
        #expect(json.standardOutput.contains("\u{9B}") && json.standardOutput.contains("\u{7F}"), "JSON keeps DEL and C1 as they are")
    }

    @Test("call: an extension that exits after a stderr line has the line relayed escaped")
    func relayedStderr() throws {
        let appex = try Self.hostileBundle(crash: true)
        defer { try? FileManager.default.removeItem(at: appex.deletingLastPathComponent().deletingLastPathComponent()) }
        let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-escape")
        defer { try? FileManager.default.removeItem(at: state) }
        let arguments = ["call", appex.path, "status", "--state", state.path, "--deadline", "status=20s"]
        try expectEscaped(arguments)
        let human = try WalletHostCommand.run(arguments)
        #expect(human.standardOutput.contains(#"stderr: title\u{1B}]0;pwned-title"#), "\(human.standardOutput)")
        let json = try WalletHostCommand.run(arguments + ["--json"])
        #expect(json.standardOutput.contains(#"title\u001b]0;pwned-title\u0007"#) || json.standardOutput.contains(#"title\u001B]0;pwned-title\u0007"#),
                "\(json.standardOutput)")
    }

    @Test("conform: the failed check's message is escaped in the transcript; --json keeps it exact")
    func conform() throws {
        let appex = try Self.hostileBundle()
        defer { try? FileManager.default.removeItem(at: appex.deletingLastPathComponent().deletingLastPathComponent()) }
        let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-escape")
        defer { try? FileManager.default.removeItem(at: state) }
        let human = try WalletHostCommand.run(["conform", appex.path, "--state", state.path])
        let printed = human.standardOutput + human.standardError
        #expect(Self.rawControls(in: printed).isEmpty, "raw control characters \(Self.rawControls(in: printed)) in \(printed.debugDescription)")
        #expect(printed.contains(#"\u{1B}]0;pwned-title\u{7}"#), "\(printed)")
        let json = try WalletHostCommand.run(["conform", appex.path, "--state", state.path, "--json"])
        #expect(json.standardOutput.contains(#"\u001b]0;pwned-title\u0007"#) || json.standardOutput.contains(#"\u001B]0;pwned-title\u0007"#),
                "\(json.standardOutput)")
    }
}
