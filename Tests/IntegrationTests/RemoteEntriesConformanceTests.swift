import ConformanceEngine
import Foundation
import Testing
import Wallet
import WalletTestSupport

/// Issue 33, bug 5: conform failed `remotePassEntries` for a handler that leaves it to the
/// base class (the SDK answers "method not found") while its status never offers remote
/// entries. Wallet would never call it then, so the check passes; with remote entries offered
/// it still fails.
@Suite("conform: a remotePassEntries Wallet would never call", .serialized, .timeLimit(.minutes(5)))
struct RemoteEntriesConformanceTests {
    /// A handler answering as the SDK does for a method neither form of which is overridden.
    static func handler(remoteAvailable: Bool) -> String {
        #"""
        #!/usr/bin/env python3
        import json, os, sys
        incoming, outgoing = os.fdopen(3, "rb"), os.fdopen(4, "wb", buffering=0)
        def send(message):
            outgoing.write(json.dumps({"jsonrpc": "2.0", **message}, separators=(",", ":")).encode() + b"\n")
        STATUS = {"passEntriesAvailable": False, "remotePassEntriesAvailable": REMOTE, "requiresAuthentication": False}
        for raw in incoming:
            message = json.loads(raw)
            method, request_id = message.get("method"), message.get("id")
            if method == "exit":
                sys.exit(0)
            if method is None or request_id is None:
                continue
            if method == "initialize":
                send({"id": request_id, "result": {"protocolVersion": 1, "methods": ["passEntries", "remotePassEntries", "status"],
                                                   "runtime": {"name": "base-class.py", "version": "1"}}})
            elif method == "shutdown":
                send({"id": request_id, "result": None})
            elif method == "status":
                send({"id": request_id, "result": STATUS})
            else:
                send({"id": request_id, "error": {"code": -32601,
                      "message": "Handler implements neither %s(completion:) nor %s() async" % (method, method)}})
        """#.replacingOccurrences(of: "REMOTE", with: remoteAvailable ? "True" : "False")
    }

    private func report(remoteAvailable: Bool) async throws -> ConformanceReport {
        let appex = try ExampleBundles.testHelper(mode: "normal")
        let executable = appex.appendingPathComponent("TestHelperExt")
        try FileManager.default.removeItem(at: executable)
        try Data(Self.handler(remoteAvailable: remoteAvailable).utf8).write(to: executable)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: executable.path)
        return await ConformanceTests.conform(appex)
    }

    @Test("not overridden while status offers no remote entries: the shape check passes, saying why")
    func notCalledPasses() async throws {
        let report = try await report(remoteAvailable: false)
        for method in ["passEntries", "remotePassEntries"] {
            let check = try #require(report.check("result-shape-\(method)"))
            #expect(check.status == .passed, ConformanceTests.explain(report))
            #expect(check.evidence.contains("\(method)Available false, so Wallet never asks for \(method)"), "\(check.evidence)")
        }
    }

    @Test("not overridden while status offers remote entries: the shape check still fails")
    func calledFails() async throws {
        let report = try await report(remoteAvailable: true)
        let check = try #require(report.check("result-shape-remotePassEntries"))
        #expect(check.status == .failed, ConformanceTests.explain(report))
        #expect(check.evidence.contains("not implemented"), "\(check.evidence)")
    }
}
