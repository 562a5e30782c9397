import Foundation
import Testing
import Wallet
import WalletHostRuntime
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 12 ("safe state"): a state file that is there but cannot be read is an error naming
/// it and is never written over; App Group containers stay under `AppGroups/`; temporary files
/// of a killed writer are cleaned.
@Suite("State files that cannot be read, App Group containers, stale temporary files")
struct StateFileSafetyTests {
    private let device = SimulatedDevice(state: StateDirectory(url: TemporaryDirectory.uniqueURL(prefix: "wallet-host-safe-state")))
    private var state: StateDirectory { device.state }
    private let pass = PassRecord(primaryAccountIdentifier: "acct-1", primaryAccountNumberSuffix: "1234", device: .iphone, issuer: "x")

    private func makeStateDirectory() throws {
        try FileManager.default.createDirectory(at: state.url, withIntermediateDirectories: true)
    }

    /// Runs `body`, expecting a ``StateError`` with exactly `message`.
    private func expectStateError(_ message: String, sourceLocation: SourceLocation = #_sourceLocation,
                                  _ body: () throws -> Void) {
        do {
            try body()
            Issue.record("expected the error \"\(message)\"", sourceLocation: sourceLocation)
        } catch let error as StateError {
            #expect(error.description == message, sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected a StateError, got \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test("passes.json that is a directory is an error on read and on add, and stays a directory")
    func passesDirectory() throws {
        defer { try? FileManager.default.removeItem(at: state.url) }
        try FileManager.default.createDirectory(at: state.passesURL, withIntermediateDirectories: true)
        let message = "cannot read the pass library \(state.passesURL.path): it is a directory"
        expectStateError(message) { _ = try device.passes() }
        expectStateError(message) { try device.addPass(pass) }
        expectStateError(message) { try device.resetPasses(device: nil) }
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: state.passesURL.path, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    @Test("passes.json that is a symbolic link loop is refused, not followed, and not replaced by an add")
    func passesSymbolicLinkLoop() throws {
        defer { try? FileManager.default.removeItem(at: state.url) }
        try makeStateDirectory()
        try FileManager.default.createSymbolicLink(atPath: state.passesURL.path, withDestinationPath: "passes.json")
        expectStateError("cannot read the pass library \(state.passesURL.path): it is a symbolic link: refused, not followed "
                         + "(the host follows no link in the state directory)") {
            try device.addPass(pass)
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: state.passesURL.path) == "passes.json")
    }

    @Test("passes.json linking to a file that does not exist is an error (a link is refused), not an empty library")
    func passesDanglingLink() throws {
        defer { try? FileManager.default.removeItem(at: state.url) }
        try makeStateDirectory()
        try FileManager.default.createSymbolicLink(atPath: state.passesURL.path, withDestinationPath: "/nonexistent/passes.json")
        expectStateError("cannot read the pass library \(state.passesURL.path): it is a symbolic link: refused, not followed "
                         + "(the host follows no link in the state directory)") {
            try device.addPass(pass)
        }
    }

    @Test("passes.json with mode 000 is 'permission denied' and keeps its passes (needs a user other than root)",
          .enabled(if: geteuid() != 0, "root reads a mode 000 file; the CLI tests cover this as nobody"))
    func passesUnreadable() throws {
        defer {
            chmod(state.passesURL.path, 0o644)
            try? FileManager.default.removeItem(at: state.url)
        }
        try device.addPass(pass)
        let before = try Data(contentsOf: state.passesURL)
        #expect(chmod(state.passesURL.path, 0) == 0)
        expectStateError("cannot read the pass library \(state.passesURL.path): permission denied") {
            try device.addPass(PassRecord(primaryAccountIdentifier: "acct-2", primaryAccountNumberSuffix: "2", device: .iphone, issuer: "x"))
        }
        #expect(chmod(state.passesURL.path, 0o644) == 0)
        #expect(try Data(contentsOf: state.passesURL) == before)
    }

    @Test("device.json that is not valid JSON is an error naming it, and pairing the watch leaves it as it was")
    func deviceNotJSON() throws {
        defer { try? FileManager.default.removeItem(at: state.url) }
        try makeStateDirectory()
        try Data("{\"watchPaired\": tr".utf8).write(to: state.deviceURL)
        let message = "cannot read the device settings \(state.deviceURL.path): it is not valid JSON"
        expectStateError(message) { _ = try device.settings() }
        expectStateError(message) { try device.updateSettings { $0.watchPaired = false } }
        #expect(try Data(contentsOf: state.deviceURL) == Data("{\"watchPaired\": tr".utf8))
    }

    @Test("device.json of the wrong shape says what is missing")
    func deviceWrongShape() throws {
        defer { try? FileManager.default.removeItem(at: state.url) }
        try makeStateDirectory()
        try Data("[1, 2]".utf8).write(to: state.deviceURL)
        expectStateError("cannot read the device settings \(state.deviceURL.path): it holds the wrong kind of value (expected Dictionary<String, Any>)") {
            _ = try device.settings()
        }
    }

    @Test("add-card stops before discovery when the pass library cannot be read")
    func addCardChecksTheLibrary() async throws {
        defer { try? FileManager.default.removeItem(at: state.url) }
        try FileManager.default.createDirectory(at: state.passesURL, withIntermediateDirectories: true)
        let flow = AddCardFlow(installed: InstalledApps(apps: []), device: device, configuration: HostConfiguration(), userAgent: nil)
        let report = await flow.run(AddCardOptions())
        #expect(report.failure == "cannot read the pass library \(state.passesURL.path): it is a directory")
        #expect(report.discovery.isEmpty)
    }

    @Test("discovery gives unreadable settings as every issuer's reason, not \"never opened\"")
    func discoveryChecksTheSettings() async throws {
        defer { try? FileManager.default.removeItem(at: state.url) }
        try FileManager.default.createDirectory(at: state.deviceURL, withIntermediateDirectories: true)
        let installed = InstalledApps(directory: ExampleBundles.directory)
        try #require(!installed.apps.isEmpty)
        let flow = AddCardFlow(installed: installed, device: device, configuration: HostConfiguration(), userAgent: nil)
        let issuers = await flow.discover(.iphone)
        #expect(issuers.count == installed.apps.count)
        for issuer in issuers {
            #expect(!issuer.listed)
            #expect(issuer.reason == "cannot read the device settings \(state.deviceURL.path): it is a directory")
        }
    }

    @Test("an App Group identifier that is not one directory name is refused, naming it, and nothing is created",
          arguments: ["", ".", "..", "../elsewhere", "a/b"])
    func containerRefused(_ identifier: String) throws {
        defer { try? FileManager.default.removeItem(at: state.url) }
        do {
            let container = try state.appGroupContainer(identifier, team: "com.example.issuer")
            Issue.record("\"\(identifier)\" got the container \(container.path)")
        } catch let error as StateError {
            #expect(error.description.hasPrefix("the App Group identifier \"\(identifier)\" "), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: state.url.path))
    }

    @Test("a usable identifier's container is a direct child of AppGroups/")
    func containerInside() throws {
        defer { try? FileManager.default.removeItem(at: state.url) }
        let container = try state.appGroupContainer("group.com.example.issuer", team: "com.example.issuer")
        #expect(container.deletingLastPathComponent().standardizedFileURL == state.appGroupsURL.standardizedFileURL)
        #expect(container.lastPathComponent == "group.com.example.issuer")
    }

    @Test("a write removes the temporary files a killed writer left, and nothing else")
    func staleTemporaryFiles() throws {
        defer { try? FileManager.default.removeItem(at: state.url) }
        try makeStateDirectory()
        let stale = [".passes.json.4242.3735928559.tmp", ".device.json.17.1.tmp"]
        let kept = [".notes.tmp", "passes.json.bak", ".passes.json.tmp"]
        for name in stale + kept {
            try Data("{".utf8).write(to: state.url.appendingPathComponent(name))
        }
        try device.addPass(pass)
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: state.url.path))
        #expect(names.isDisjoint(with: stale), "\(names.sorted())")
        #expect(names.isSuperset(of: kept), "\(names.sorted())")
        #expect(try device.passes().map(\.primaryAccountIdentifier) == ["acct-1"])
    }
}
