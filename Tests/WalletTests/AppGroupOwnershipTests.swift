import Foundation
import Testing
import Wallet
import WalletTestSupport

/// Issue 16, part 3: an App Group container belongs to the first team that uses it on a
/// simulated device; a bundle of another team that names it gets no container.
@Suite("App Group owners")
struct AppGroupOwnershipTests {
    static let group = "group.com.example.sampleissuer"
    static let sample = "com.example.sampleissuer"
    static let hostile = "EVILTEAM99"

    private let state = StateDirectory(url: TemporaryDirectory.uniqueURL(prefix: "wallet-host-owners"))

    /// The error thrown by `body`, or a recorded issue when it throws none.
    private func stateError(_ body: () throws -> Void) -> String? {
        do {
            try body()
            Issue.record("expected a StateError")
        } catch {
            return "\(error)"
        }
        return nil
    }

    @Test("the first team owns the group; another team gets no container, with an error naming the group and both teams")
    func firstTeamOwns() throws {
        defer { try? FileManager.default.removeItem(at: state.url) }
        let container = try state.appGroupContainer(Self.group, team: Self.sample)
        #expect(try state.appGroupContainer(Self.group, team: Self.sample) == container, "the owner uses it again")
        #expect(try state.appGroupOwners() == [Self.group: Self.sample])

        let message = stateError { _ = try state.appGroupContainers([Self.group], team: Self.hostile) }
        #expect(message?.contains("the App Group \"\(Self.group)\" belongs to team \"\(Self.sample)\"") == true, "\(message ?? "")")
        #expect(message?.contains("a bundle of team \"\(Self.hostile)\" gets no container") == true, "\(message ?? "")")
        #expect(try state.appGroupOwners() == [Self.group: Self.sample])
    }

    @Test("a team refused one of its groups claims none of them")
    func allOrNothing() throws {
        defer { try? FileManager.default.removeItem(at: state.url) }
        _ = try state.appGroupContainers([Self.group], team: Self.sample)
        _ = stateError { _ = try state.appGroupContainers(["group.com.example.evil", Self.group], team: Self.hostile) }
        #expect(try state.appGroupOwners() == [Self.group: Self.sample])
        #expect(!FileManager.default.fileExists(atPath: state.appGroupsURL.appendingPathComponent("group.com.example.evil").path))
    }

    @Test("containers from before owners were recorded go to the first team that claims them after the upgrade")
    func upgradedStateDirectory() throws {
        defer { try? FileManager.default.removeItem(at: state.url) }
        let old = state.appGroupsURL.appendingPathComponent(Self.group)
        try FileManager.default.createDirectory(at: old, withIntermediateDirectories: true)
        try Data("cards".utf8).write(to: old.appendingPathComponent("defaults.plist"))
        #expect(try state.appGroupOwners().isEmpty)

        #expect(try state.appGroupContainers([Self.group], team: Self.sample) == [Self.group: old.path])
        #expect(try Data(contentsOf: old.appendingPathComponent("defaults.plist")) == Data("cards".utf8))
        #expect(stateError { _ = try state.appGroupContainer(Self.group, team: Self.hostile) } != nil)
    }

    @Test("the owners file is one of the state files: unreadable, it is an error naming it")
    func unreadableOwners() throws {
        defer { try? FileManager.default.removeItem(at: state.url) }
        try FileManager.default.createDirectory(at: state.url, withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: state.appGroupOwnersURL)
        let message = stateError { _ = try state.appGroupContainer(Self.group, team: Self.sample) }
        #expect(message == "cannot read the App Group owners \(state.appGroupOwnersURL.path): it is not valid JSON")
    }
}
