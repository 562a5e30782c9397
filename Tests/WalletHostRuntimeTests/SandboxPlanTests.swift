import Foundation
import Testing
import WalletHostRuntime
import WalletTestSupport

/// What a sandboxed process is shown, decided in one place.
@Suite("SandboxPlan: the paths a sandboxed process sees")
struct SandboxPlanTests {
    @Test("the bundle is read-only, the containers and the directories the host names in XDG_* are read-write, nothing else of the state")
    func grantsFollowTheDescriptor() throws {
        let root = try TemporaryDirectory(prefix: "wallet-host-plan")
        defer { root.remove() }
        let state = root.url.appendingPathComponent("state")
        let bundle = root.url.appendingPathComponent("Apps/A.app/PlugIns/A.appex")
        let container = state.appendingPathComponent("AppGroups/group.a")
        let defaults = state.appendingPathComponent("launches/1/config")
        for directory in [bundle, container, defaults] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        let plan = SandboxPlan(readOnly: [bundle.path], writable: [container.path],
                               environment: ["XDG_CONFIG_HOME": defaults.path, "XDG_CACHE_HOME": "relative/ignored"],
                               initPath: "/usr/bin/true")
        let grants = Dictionary(uniqueKeysWithValues: plan.grants.map { ($0.path, $0.writable) })
        #expect(grants[bundle.path] == false)
        #expect(grants[container.path] == true)
        #expect(grants[defaults.path] == true)
        #expect(grants["relative/ignored"] == nil)
        #expect(grants["/usr"] == false)
        // Neither the state directory nor anything else under the temporary root is shown whole.
        #expect(!plan.grants.contains { $0.path == state.path || $0.path == root.url.path })
        #expect(plan.writablePaths.sorted() == [container.path, defaults.path].sorted())
    }

    @Test("a grant inside one of the same kind is left out; one of the other kind stays, after its parent")
    func nestedGrants() {
        let plan = SandboxPlan(readOnly: ["/usr/share"], writable: ["/usr/share/doc-writable-test"], environment: [:],
                               initPath: "/usr/bin/true")
        let paths = plan.grants.map(\.path)
        #expect(!paths.contains("/usr/share"))
        // /bin is a link to usr/bin here: its real path is inside /usr, shown already.
        #expect(!paths.contains("/usr/bin"))
        let usr = paths.firstIndex(of: "/usr")
        let inner = paths.firstIndex(of: "/usr/share/doc-writable-test")
        #expect(usr != nil && inner != nil && usr! < inner!)
    }
}
