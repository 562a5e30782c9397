import ConformanceEngine
import Foundation
import Testing
import Wallet
import WalletHostRuntime
import WalletTestSupport
import WalletWire
#if canImport(FoundationXML)
import FoundationXML
#endif

/// `wallet-host conform`: the good examples pass every check, and each misbehaviour mode of the
/// test helper fails the check named after what it breaks.
@Suite("Conformance battery", .serialized, .timeLimit(.minutes(10)))
struct ConformanceTests {
    /// Runs the battery on one `.appex` with a fresh simulated device.
    static func conform(_ appex: URL) async -> ConformanceReport {
        var configuration = HostConfiguration()
        // Half the default grace: the hang modes then cost half as long. Well within what a
        // conforming extension needs to answer a cancelled call.
        configuration.hangGrace = .milliseconds(500)
        var options = ConformanceOptions(configuration: configuration)
        // Other suites may share the two cores: give Wallet's 100 ms cold status a few more launches.
        options.coldAttempts = 5
        let state = StateDirectory(url: FileManager.default.temporaryDirectory
            .appendingPathComponent("wallet-host-conform-\(UUID().uuidString)"))
        defer { TemporaryDirectory(existing: state.url).remove() }
        return await WalletConformance.suite(state: state, options: options).run(appex: appex)
    }

    static func explain(_ report: ConformanceReport) -> Comment {
        Comment(rawValue: report.render())
    }

    // MARK: Good examples

    @Test("the good examples pass every check", arguments: ["WNonUIExt", "WUIExt", "TestHelperExt"])
    func goodExamplesPass(name: String) async throws {
        let appex = name == "TestHelperExt"
            ? try ExampleBundles.testHelper(mode: "normal")
            : ExampleBundles.sampleIssuerApp.appendingPathComponent("PlugIns/\(name).appex")
        let report = await Self.conform(appex)
        #expect(report.passed, Self.explain(report))
        #expect(report.failedCheckIDs.isEmpty, Self.explain(report))
        #expect(report.count(.skipped) == 0, Self.explain(report))
        let expected = name == "WUIExt"
            ? ["manifest-valid", "handshake", "result-shape-authorize", "honours-cancel", "concurrent-calls", "exits-on-exit",
               "memory-limit", "fd4-protocol-only", "exactly-once"]
            : ["manifest-valid", "handshake", "result-shape-status", "result-shape-passEntries", "result-shape-remotePassEntries",
               "result-shape-generateAddPaymentPassRequest", "status-cold-deadline", "status-warm-deadline", "honours-cancel",
               "concurrent-calls", "entries-valid", "request-valid", "instance-state", "exits-on-exit", "memory-limit",
               "fd4-protocol-only", "exactly-once"]
        #expect(report.checks.map(\.id) == expected)
        #expect(report.checks.allSatisfy { !$0.evidence.isEmpty && !$0.title.isEmpty })
    }

    @Test("stdout noise is not protocol: the noisy helper passes, and the evidence counts the log lines")
    func stdoutNoisePasses() async throws {
        let report = await Self.conform(try ExampleBundles.testHelper(mode: "stdout-noise"))
        #expect(report.passed, Self.explain(report))
        let protocolOnly = try #require(report.check("fd4-protocol-only"))
        #expect(protocolOnly.evidence.contains("on stdout and stderr went to the log"), "\(protocolOnly.evidence)")
    }

    // MARK: Misbehaviour modes

    /// A helper mode, the checks it must fail and, where the mode is precise, checks it must still pass.
    struct Misbehaviour: Sendable, CustomTestStringConvertible {
        var mode: String
        var fails: [String]
        var passes: [String] = []
        var testDescription: String { "\(mode) fails \(fails.joined(separator: ", "))" }
    }

    static let misbehaviours: [Misbehaviour] = [
        Misbehaviour(mode: "slow-status 150", fails: ["status-cold-deadline", "status-warm-deadline"],
                     passes: ["result-shape-status", "honours-cancel"]),
        Misbehaviour(mode: "slow-launch 200", fails: ["status-cold-deadline"]),
        Misbehaviour(mode: "late-complete 200", fails: ["status-cold-deadline", "status-warm-deadline"],
                     passes: ["honours-cancel", "exactly-once"]),
        Misbehaviour(mode: "hang", fails: ["result-shape-status", "honours-cancel", "exactly-once"]),
        Misbehaviour(mode: "crash-signal", fails: ["result-shape-status"], passes: ["result-shape-passEntries"]),
        Misbehaviour(mode: "crash-fatal", fails: ["result-shape-status"], passes: ["result-shape-passEntries"]),
        Misbehaviour(mode: "fork-grandchild", fails: ["result-shape-status"]),
        Misbehaviour(mode: "allocate-mb 70", fails: ["memory-limit"]),
        Misbehaviour(mode: "allocate-small-mb 70", fails: ["memory-limit"]),
        Misbehaviour(mode: "allocate-on-request-mb 70", fails: ["result-shape-generateAddPaymentPassRequest", "memory-limit"],
                     passes: ["result-shape-status"]),
        Misbehaviour(mode: "garbage-line", fails: ["fd4-protocol-only"], passes: ["result-shape-status", "exactly-once"]),
        Misbehaviour(mode: "garbage-instead", fails: ["result-shape-status", "status-cold-deadline", "fd4-protocol-only"]),
        Misbehaviour(mode: "oversized-line", fails: ["fd4-protocol-only"]),
        Misbehaviour(mode: "double-complete", fails: ["exactly-once"], passes: ["result-shape-status", "fd4-protocol-only"]),
        Misbehaviour(mode: "ignore-exit", fails: ["exits-on-exit"], passes: ["result-shape-status"]),
        Misbehaviour(mode: "nil-request", fails: ["request-valid"], passes: ["result-shape-generateAddPaymentPassRequest"]),
        Misbehaviour(mode: "bad-request", fails: ["request-valid"], passes: ["result-shape-generateAddPaymentPassRequest"]),
        Misbehaviour(mode: "wrong-shape", fails: ["result-shape-status"], passes: ["fd4-protocol-only"]),
    ]

    @Test("each misbehaviour mode fails the check named after what it breaks", arguments: misbehaviours)
    func misbehaviourFailsNamedCheck(_ misbehaviour: Misbehaviour) async throws {
        let report = await Self.conform(try ExampleBundles.testHelper(mode: misbehaviour.mode))
        #expect(!report.passed)
        for id in misbehaviour.fails {
            let check = try #require(report.check(id), "no check \(id)")
            #expect(check.status == .failed, "\(misbehaviour.mode): \(id) should fail\n\(report.render())")
            #expect(!check.evidence.isEmpty)
        }
        for id in misbehaviour.passes {
            #expect(report.check(id)?.status == .passed, "\(misbehaviour.mode): \(id) should pass\n\(report.render())")
        }
    }

    @Test("the evidence carries the numbers: a slow status names its time and Wallet's limit")
    func evidenceHasNumbers() async throws {
        let report = await Self.conform(try ExampleBundles.testHelper(mode: "slow-status 150"))
        let warm = try #require(report.check("status-warm-deadline"))
        #expect(warm.evidence.contains("median of 5 calls"), "\(warm.evidence)")
        #expect(warm.evidence.contains("limit 100 ms"), "\(warm.evidence)")
        let cold = try #require(report.check("status-cold-deadline"))
        #expect(cold.evidence.contains("100 ms deadline"), "\(cold.evidence)")
        #expect(cold.evidence.contains("after the ask"), "\(cold.evidence)")
    }

    @Test("a handler that keeps state between calls fails instance-state (an extension written in Python)")
    func leakingStateFailsInstanceState() async throws {
        let appex = try ExampleBundles.testHelper(mode: "normal")
        let executable = appex.appendingPathComponent("TestHelperExt")
        try FileManager.default.removeItem(at: executable)
        try Data(Self.leakyHandler.utf8).write(to: executable)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: executable.path)

        let report = await Self.conform(appex)
        let handshake = try #require(report.check("handshake"))
        #expect(handshake.evidence.contains("leaky.py"), "\(handshake.evidence)")
        let state = try #require(report.check("instance-state"))
        #expect(state.status == .failed, Self.explain(report))
        #expect(state.evidence.contains("1 entry: card-1") && state.evidence.contains("2 entries: card-1, card-2"),
                "\(state.evidence)")
    }

    /// A non-SDK handler that appends an entry to a list it keeps across calls.
    static let leakyHandler = #"""
        #!/usr/bin/env python3
        import json, os, sys
        ART = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
        incoming, outgoing = os.fdopen(3, "rb"), os.fdopen(4, "wb", buffering=0)
        handed_out = []
        def send(message):
            outgoing.write(json.dumps({"jsonrpc": "2.0", **message}, separators=(",", ":")).encode() + b"\n")
        def entries(params):
            handed_out.append({"identifier": "card-%d" % (len(handed_out) + 1), "title": "Leaky Card", "art": {"png": ART},
                               "addRequestConfiguration": {"encryptionScheme": "ECC_V2", "cardholderName": "Jane Appleseed",
                                                           "style": "payment", "cardDetails": [], "productIdentifiers": [],
                                                           "requiresFelicaSecureElement": False}})
            return {"entries": list(handed_out)}
        HANDLERS = {"status": lambda params: {"passEntriesAvailable": True, "remotePassEntriesAvailable": False,
                                              "requiresAuthentication": False},
                    "passEntries": entries}
        for raw in incoming:
            message = json.loads(raw)
            method, request_id = message.get("method"), message.get("id")
            if method == "exit":
                sys.exit(0)
            if method is None or request_id is None:
                continue
            if method == "initialize":
                result = {"protocolVersion": 1, "methods": sorted(HANDLERS), "runtime": {"name": "leaky.py", "version": "1"}}
            elif method == "shutdown":
                result = None
            else:
                result = HANDLERS[method](message.get("params") or {})
            send({"id": request_id, "result": result})
        """#

    // MARK: Reports

    @Test("JUnit XML is well formed, escapes evidence, and its counts match the reports")
    func junitIsWellFormed() async throws {
        let good = await Self.conform(try ExampleBundles.testHelper(mode: "normal"))
        let bad = await Self.conform(try ExampleBundles.testHelper(mode: "wrong-shape"))
        let nasty = ConformanceReport(
            bundlePath: "/tmp/<odd> & \"quoted\".appex", name: "Odd", bundleIdentifier: "com.example.odd", extensionPoint: nil,
            notes: ["a note with 'apostrophes'"],
            checks: [ConformanceCheck(id: "tricky", title: "Title <b>", status: .failed,
                                      evidence: "line one\nline two & <three> \"four\" 'five' \u{1}six", durationMilliseconds: 1.5),
                     ConformanceCheck(id: "skipper", title: "Skip", status: .skipped, evidence: "because", durationMilliseconds: 0)],
            durationMilliseconds: 2)
        let reports = [good, bad, nasty]
        let xml = reports.renderJUnit()

        let collector = JUnitCollector()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = collector
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "") in\n\(xml)")
        #expect(collector.suites.count == 3)
        #expect(collector.suites == reports.map(\.suiteName))
        #expect(collector.testCases == reports.reduce(0) { $0 + $1.checks.count })
        #expect(collector.failureMessages.count == reports.reduce(0) { $0 + $1.count(.failed) })
        #expect(collector.skipped == reports.reduce(0) { $0 + $1.count(.skipped) })
        #expect(collector.rootAttributes["tests"] == String(collector.testCases))
        #expect(collector.rootAttributes["failures"] == String(collector.failureMessages.count))
        #expect(collector.failureMessages.contains("line one\nline two & <three> \"four\" 'five' \u{FFFD}six"))
        #expect(collector.failureMessages.contains { $0.hasPrefix("status answered in") && $0.contains("documented shape") })
    }

    @Test("JSON output round-trips and says whether everything passed")
    func jsonRoundTrips() async throws {
        let report = await Self.conform(try ExampleBundles.testHelper(mode: "double-complete"))
        let json = try [report].renderJSON()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["passed"] as? Bool == false)
        struct Document: Decodable { var reports: [ConformanceReport] }
        let decoded = try JSONDecoder().decode(Document.self, from: Data(json.utf8))
        #expect(decoded.reports.first?.checks == report.checks)
    }

    // MARK: The command

    @Test("wallet-host conform exits 0 when every check passes, 1 when one fails, 2 on a usage error")
    func commandExitStatus() async throws {
        let junit = URL(fileURLWithPath: TemporaryDirectory.uniqueURL(prefix: "conform").path + ".xml")
        // Other suites may share the two cores: this test is about exit statuses, not Wallet's 100 ms.
        let good = try WalletHostCommand.run(["conform", ExampleBundles.sampleIssuerApp.path, "--junit", junit.path, "--deadline", "status=1s"])
        #expect(good.status == 0, "\(good.standardOutput)\n\(good.standardError)")
        #expect(good.standardOutput.contains("PASS status-cold-deadline"), "\(good.standardOutput)")
        #expect(good.standardOutput.contains("conform WUIExt.appex"), "\(good.standardOutput)")
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains("<testsuite name=\"com.example.sampleissuer.WNonUIExt\""))

        // A failing run keeps its state directory for diagnosis: give it one to remove.
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("wallet-host-conform-\(UUID().uuidString)")
        defer { TemporaryDirectory(existing: state).remove() }
        let bad = try WalletHostCommand.run(["conform", try ExampleBundles.testHelper(mode: "wrong-shape").path, "--json",
                                         "--deadline", "status=5s", "--state", state.path])
        #expect(bad.status == 1, "\(bad.standardOutput)\n\(bad.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bad.standardOutput.utf8)) as? [String: Any])
        #expect(object["passed"] as? Bool == false)
        #expect(bad.standardOutput.contains("\"result-shape-status\""))

        let usage = try WalletHostCommand.run(["conform"])
        #expect(usage.status == 2)
        #expect(usage.standardError.contains("conform needs at least one APPEX"))
    }
}

/// Counts what a JUnit document holds, as a CI system would read it.
private final class JUnitCollector: NSObject, XMLParserDelegate {
    var rootAttributes: [String: String] = [:]
    var suites: [String] = []
    var testCases = 0
    var failureMessages: [String] = []
    var skipped = 0

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        switch elementName {
        case "testsuites": rootAttributes = attributes
        case "testsuite": suites.append(attributes["name"] ?? "")
        case "testcase": testCases += 1
        case "failure": failureMessages.append(attributes["message"] ?? "")
        case "skipped": skipped += 1
        default: break
        }
    }
}
