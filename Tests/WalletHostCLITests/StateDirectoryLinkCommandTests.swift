import Foundation
import Testing
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 31, break 3, end to end: `app open` of the sample issuer (which makes its App Group's
/// container) on a state directory another local user controls, or whose `AppGroups` that user
/// swapped for a link. The root host made the container wherever the link pointed and gave it
/// to uid 65534; now it refuses, naming the link or the owner, and makes nothing.
@Suite("wallet-host app open on a state directory another user controls", .serialized, .timeLimit(.minutes(1)))
struct StateDirectoryLinkCommandTests {
    @Test("AppGroups swapped for a link: app open fails naming it, and nothing is made where it points")
    func appGroupsLink() throws {
        let scratch = try TemporaryDirectory(prefix: "wallet-host-state-link")
        defer { scratch.remove() }
        let state = scratch.url.appendingPathComponent("state")
        #expect(mkdir(state.path, 0o700) == 0)
        let elsewhere = scratch.url.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: state.appendingPathComponent("AppGroups"), withDestinationURL: elsewhere)
        let run = try WalletHostCommand.run(["app", "open", ExampleBundles.sampleIssuerApp.path, "--state", state.path, "--no-daemon"])
        #expect(run.status == 1, "\(run.standardError)")
        #expect(run.standardError.contains("refusing \(state.path)/AppGroups in the state directory: it is a symbolic link"), "\(run.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
    }

    @Test("a state directory of uid 1000: app open run by root refuses it, naming the owner, and writes nothing",
          .enabled(if: geteuid() == 0, "chown needs root"))
    func stateOfAnotherUser() throws {
        let scratch = try TemporaryDirectory(prefix: "wallet-host-state-link")
        defer { scratch.remove() }
        let state = scratch.url.appendingPathComponent("state")
        #expect(mkdir(state.path, 0o700) == 0)
        #expect(chown(state.path, 1000, 1000) == 0)
        let run = try WalletHostCommand.run(["app", "open", ExampleBundles.sampleIssuerApp.path, "--state", state.path, "--no-daemon"])
        #expect(run.status == 1, "\(run.standardError)")
        #expect(run.standardError.contains("refusing the state directory \(state.path): it belongs to uid 1000"), "\(run.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: state.path).isEmpty)
    }

    @Test("a host that is not root (nobody) refuses a state directory of root's, naming the owner",
          .enabled(if: geteuid() == 0 && RunAsNobody.isPossible, "runs wallet-host as nobody from root"))
    func unprivilegedHostRefusesRootsDirectory() throws {
        let scratch = try TemporaryDirectory(prefix: "wallet-host-state-link")
        defer { scratch.remove() }
        let state = scratch.url.appendingPathComponent("state")
        #expect(mkdir(state.path, 0o755) == 0)
        let run = try WalletHostCommand.run(["passes", "list", "--state", state.path], launcher: RunAsNobody.setpriv)
        #expect(run.status == 1, "\(run.standardError)")
        #expect(run.standardError.contains("refusing the state directory \(state.path): it belongs to uid 0 (root), "
                                           + "not to this host's user uid 65534"), "\(run.standardError)")
    }
}

