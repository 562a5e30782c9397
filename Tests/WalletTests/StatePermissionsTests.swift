import Foundation
import Testing
import Wallet
import WalletTestSupport
import WalletWire

/// Issue 16, part 9: the state directory holds secrets (keychain.json, issuers' tokens), so no
/// other local user may read it: the directory and `logs/` are 0700, every file 0600, also when
/// an older host left them looser. A state directory the host did not create keeps its mode
/// (issue 31, break 14): one others may write to is refused (EmptyPathOptionTests).
@Suite("State directory permissions")
struct StatePermissionsTests {
    private let state = StateDirectory(url: TemporaryDirectory.uniqueURL(prefix: "wallet-host-modes"))

    private func mode(_ url: URL) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber).intValue
    }

    private func writeEverything() throws {
        let device = SimulatedDevice(state: state)
        let access = KeychainAccess(team: "com.example.issuer", groups: ["com.example.issuer"])
        _ = try device.changeKeychain(for: access) {
            $0.add(KeychainAddParams(itemClass: KeychainStatus.genericPasswordClass, attributes: KeychainAttributes(account: "jane"),
                                     data: Data("s3cret".utf8)), access: access)
        }
        try device.addPass(PassRecord(primaryAccountIdentifier: "acct-1", primaryAccountNumberSuffix: "1234", device: .iphone,
                                      issuer: "com.example.issuer"))
        _ = try state.appGroupContainers(["group.com.example.issuer"], team: "com.example.issuer")
        let log = try state.openEventLog()
        log.recordOutput(bundleIdentifier: "com.example.issuer.WNonUIExt", pid: 1, stream: "stderr", line: "token s3cret")
    }

    private func expectPrivate(stateMode: Int = 0o700) throws {
        #expect(try mode(state.url) == stateMode)
        #expect(try mode(state.logsURL) == 0o700)
        for file in [try state.keychainURL(team: "com.example.issuer"), state.passesURL, state.appGroupOwnersURL, state.url.appendingPathComponent(".lock"),
                     state.logsURL.appendingPathComponent("events.jsonl"),
                     state.logsURL.appendingPathComponent("com.example.issuer.WNonUIExt.log")] {
            #expect(try mode(file) == 0o600, "\(file.lastPathComponent)")
        }
    }

    @Test("a new state directory is 0700 and its files 0600")
    func newDirectory() throws {
        defer { try? FileManager.default.removeItem(at: state.url) }
        try writeEverything()
        try expectPrivate()
    }

    @Test("in a state directory readable to all (never chmodded: the host did not create it), files and logs are tightened on the next write")
    func looseDirectoryIsTightened() throws {
        defer { try? FileManager.default.removeItem(at: state.url) }
        try FileManager.default.createDirectory(at: state.logsURL, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: state.keychainDirectoryURL, withIntermediateDirectories: true)
        let loose: [(URL, String)] = [
            (try state.keychainURL(team: "com.example.issuer"), "[]"), (state.passesURL, "[]"), (state.url.appendingPathComponent(".lock"), ""),
            (state.logsURL.appendingPathComponent("events.jsonl"), ""),
            (state.logsURL.appendingPathComponent("com.example.issuer.WNonUIExt.log"), ""),
        ]
        for (file, contents) in loose {
            try Data(contents.utf8).write(to: file)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        }
        for directory in [state.url, state.logsURL] {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        }
        try writeEverything()
        try expectPrivate(stateMode: 0o755)
    }
}
