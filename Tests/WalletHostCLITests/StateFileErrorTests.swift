import Foundation
import Testing
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Every command that touches the state prints one sentence naming a state file it cannot read,
/// exits 1, and writes nothing over the file (issue 12, items 1, 6 and 7).
@Suite("wallet-host with state files it cannot read", .timeLimit(.minutes(1)))
struct StateFileErrorTests {
    let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-cli-state")
    var passes: URL { state.appendingPathComponent("passes.json") }
    var deviceSettings: URL { state.appendingPathComponent("device.json") }

    @Test("passes list, add, remove and reset on a passes.json that is a directory", arguments: [
        ["passes", "list"], ["passes", "add", "ACCT-1"], ["passes", "remove", "ACCT-1"], ["passes", "reset"], ["passes", "--json"],
    ])
    func passesDirectory(_ command: [String]) throws {
        defer { try? FileManager.default.removeItem(at: state) }
        try FileManager.default.createDirectory(at: passes, withIntermediateDirectories: true)
        let run = try WalletHostCommand.run(command + ["--state", state.path])
        #expect(run.status == 1)
        #expect(run.standardError == "wallet-host: cannot read the pass library \(passes.path): it is a directory\n")
        if command.contains("--json") {
            // --json prints one document on stdout, errors included (issue 35).
            let error = try #require(try run.json()["error"] as? [String: Any], "\(run.standardOutput)")
            #expect(error["message"] as? String == "cannot read the pass library \(passes.path): it is a directory")
        } else {
            #expect(run.standardOutput.isEmpty, "\(run.standardOutput)")
        }
    }

    @Test("device and device --watch on a device.json that is a directory", arguments: [
        ["device"], ["device", "--watch", "unpaired"],
    ])
    func deviceDirectory(_ command: [String]) throws {
        defer { try? FileManager.default.removeItem(at: state) }
        try FileManager.default.createDirectory(at: deviceSettings, withIntermediateDirectories: true)
        let run = try WalletHostCommand.run(command + ["--state", state.path])
        #expect(run.status == 1)
        #expect(run.standardError == "wallet-host: cannot read the device settings \(deviceSettings.path): it is a directory\n")
    }

    @Test("passes add on a passes.json that is not JSON leaves it as it was")
    func passesNotJSON() throws {
        defer { try? FileManager.default.removeItem(at: state) }
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        try Data("[{\"primaryAccountIdentifier\": \"ACCT-0\"".utf8).write(to: passes)
        let run = try WalletHostCommand.run(["passes", "add", "ACCT-1", "--state", state.path])
        #expect(run.status == 1)
        #expect(run.standardError == "wallet-host: cannot read the pass library \(passes.path): it is not valid JSON\n")
        #expect(try String(contentsOf: passes, encoding: .utf8) == "[{\"primaryAccountIdentifier\": \"ACCT-0\"")
    }

    @Test("add-card stops with the sentence before it runs any issuer")
    func addCard() throws {
        let apps = try TemporaryDirectory(prefix: "wallet-host-no-apps")
        defer {
            apps.remove()
            try? FileManager.default.removeItem(at: state)
        }
        try FileManager.default.createDirectory(at: passes, withIntermediateDirectories: true)
        let run = try WalletHostCommand.run(["add-card", "--apps", apps.url.path, "--state", state.path])
        #expect(run.status == 1)
        #expect(run.standardError == "wallet-host: cannot read the pass library \(passes.path): it is a directory\n")
    }

    @Test("a state directory path that is a file is one sentence, not an NSError dump")
    func stateIsAFile() throws {
        defer { try? FileManager.default.removeItem(at: state) }
        try Data("not a directory".utf8).write(to: state)
        let add = try WalletHostCommand.run(["passes", "add", "ACCT-1", "--state", state.path])
        #expect(add.status == 1)
        #expect(add.standardError == "wallet-host: cannot create the state directory \(state.path): a file is in the way\n")
        let list = try WalletHostCommand.run(["passes", "list", "--state", state.path])
        #expect(list.status == 1)
        #expect(list.standardError == "wallet-host: cannot open the state directory \(state.path): it is not a directory\n")
    }

    @Test("passes.json with mode 000 is 'permission denied' for a user who cannot read it; its passes stay",
          .enabled(if: RunAsNobody.isPossible, RunAsNobody.impossible))
    func passesUnreadable() throws {
        // Root reads a mode 000 file: run wallet-host as nobody then, on a directory nobody owns.
        let launcher = RunAsNobody.launcher
        defer { try? FileManager.default.removeItem(at: state) }
        #expect(try WalletHostCommand.run(["passes", "add", "ACCT-0", "--state", state.path]).status == 0)
        let before = try Data(contentsOf: passes)
        if !launcher.isEmpty {
            for path in [state.path, passes.path, state.appendingPathComponent(".lock").path] {
                #expect(chown(path, 65534, 65534) == 0)
            }
        }
        #expect(chmod(passes.path, 0) == 0)
        let run = try WalletHostCommand.run(["passes", "add", "ACCT-1", "--state", state.path], launcher: launcher)
        #expect(run.status == 1)
        #expect(run.standardError == "wallet-host: cannot read the pass library \(passes.path): permission denied\n")
        #expect(try Data(contentsOf: passes) == before)
    }

    @Test("passes add removes the temporary file of a writer that was killed mid-write")
    func staleTemporaryFile() throws {
        defer { try? FileManager.default.removeItem(at: state) }
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let leftover = state.appendingPathComponent(".passes.json.99999.12345.tmp")
        try Data("[".utf8).write(to: leftover)
        let run = try WalletHostCommand.run(["passes", "add", "ACCT-1", "--state", state.path])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: leftover.path))
    }
}
