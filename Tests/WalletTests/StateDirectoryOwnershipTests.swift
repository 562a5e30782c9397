import Foundation
import Testing
import Wallet
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 31, break 3: a root host accepted a state directory owned by another local user (it
/// only chmodded it); that user swapped `<state>/AppGroups` for a link, and root created the App
/// Group's container wherever it pointed, gave it to uid 65534 and bound it into the sandbox.
/// Now, as ssh's StrictModes, the state directory must be the host's user's and no directory on
/// its path may let another user replace it; every state path is opened beneath it without
/// following a link.
@Suite("State directory ownership and links", .serialized)
struct StateDirectoryOwnershipTests {
    /// Another local user, as the hostile one.
    static let otherUser: uid_t = 1000

    private static func directory(_ url: URL, mode: mode_t, owner: uid_t? = nil) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        #expect(chmod(url.path, mode) == 0)
        if let owner { #expect(chown(url.path, owner, owner) == 0) }
    }

    private static func refusal(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test("a state directory owned by another user is refused, naming its owner, and left as it was",
          .enabled(if: geteuid() == 0, "chown needs root"))
    func stateOwnedByAnotherUser() throws {
        let scratch = try TemporaryDirectory(prefix: "wallet-host-owner")
        defer { scratch.remove() }
        let stateURL = scratch.url.appendingPathComponent("state")
        try Self.directory(stateURL, mode: 0o700, owner: Self.otherUser)
        let device = SimulatedDevice(state: StateDirectory(url: stateURL))
        let message = Self.refusal {
            try device.addPass(PassRecord(primaryAccountIdentifier: "A", primaryAccountNumberSuffix: "1", device: .iphone, issuer: "x"))
        }
        #expect(message.contains("refusing the state directory \(stateURL.path): it belongs to uid 1000"), "\(message)")
        let read = Self.refusal { _ = try device.passes() }
        #expect(read.contains("it belongs to uid 1000"), "reads are refused too: \(read)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: stateURL.path).isEmpty)
    }

    @Test("a directory on the state directory's path owned by another user is refused, naming it and the owner",
          .enabled(if: geteuid() == 0, "chown needs root"))
    func ancestorOwnedByAnotherUser() throws {
        let scratch = try TemporaryDirectory(prefix: "wallet-host-owner")
        defer { scratch.remove() }
        let theirs = scratch.url.appendingPathComponent("theirs")
        try Self.directory(theirs, mode: 0o755, owner: Self.otherUser)
        let stateURL = theirs.appendingPathComponent("state")
        try Self.directory(stateURL, mode: 0o700)
        let message = Self.refusal { try StateDirectory(url: stateURL).prepareDirectory() }
        #expect(message.contains("\(theirs.path) on its path belongs to uid 1000"), "\(message)")
    }

    @Test("a directory on the path that others may write to without the sticky bit is refused; with it (as /tmp) it is not")
    func writableAncestor() throws {
        let scratch = try TemporaryDirectory(prefix: "wallet-host-owner")
        defer { scratch.remove() }
        let open = scratch.url.appendingPathComponent("open")
        try Self.directory(open, mode: 0o777)
        let message = Self.refusal { try StateDirectory(url: open.appendingPathComponent("state")).prepareDirectory() }
        #expect(message.contains("\(open.path) on its path may be written by group or other users without the sticky bit"), "\(message)")
        #expect(chmod(open.path, 0o1777) == 0)
        try StateDirectory(url: open.appendingPathComponent("state")).prepareDirectory()
    }

    @Test("AppGroups swapped for a link: the container is refused and nothing is made where the link points")
    func appGroupsLink() throws {
        let (message, state) = try Self.refusalWithLinkedFolder(\.appGroupsURL) { state in
            _ = try state.appGroupContainer("group.com.victim.bank", team: "com.victim.bank")
        }
        #expect(message.contains("refusing \(state.appGroupsURL.path) in the state directory: it is a symbolic link"), "\(message)")
    }

    @Test("logs swapped for a link: the event log is refused")
    func logsLink() throws {
        let (message, _) = try Self.refusalWithLinkedFolder(\.logsURL) { state in _ = try state.openEventLog() }
        #expect(message.contains("it is a symbolic link"), "\(message)")
    }

    /// Replaces the state directory's folder at `folder` by a link to a folder elsewhere, runs
    /// `action`, checks that nothing was made where the link points, and returns the refusal.
    private static func refusalWithLinkedFolder(
        _ folder: KeyPath<StateDirectory, URL>, action: (StateDirectory) throws -> Void
    ) throws -> (message: String, state: StateDirectory) {
        let scratch = try TemporaryDirectory(prefix: "wallet-host-owner")
        defer { scratch.remove() }
        let state = StateDirectory(url: scratch.url.appendingPathComponent("state"))
        try state.prepareDirectory()
        let elsewhere = scratch.url.appendingPathComponent("elsewhere")
        try directory(elsewhere, mode: 0o755)
        try FileManager.default.createSymbolicLink(at: state[keyPath: folder], withDestinationURL: elsewhere)
        let message = refusal { try action(state) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
        return (message, state)
    }

    @Test("a state file that is a link is refused, not followed, and the file it points at is untouched")
    func stateFileLink() throws {
        let scratch = try TemporaryDirectory(prefix: "wallet-host-owner")
        defer { scratch.remove() }
        let state = StateDirectory(url: scratch.url.appendingPathComponent("state"))
        try state.prepareDirectory()
        let target = scratch.url.appendingPathComponent("victim.json")
        try Data("[]".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: state.passesURL, withDestinationURL: target)
        let device = SimulatedDevice(state: state)
        let message = Self.refusal { _ = try device.passes() }
        #expect(message.contains("it is a symbolic link: refused, not followed"), "\(message)")
        #expect(try String(contentsOf: target, encoding: .utf8) == "[]")
    }
}
