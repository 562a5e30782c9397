import CWalletSpawn
import Foundation
import Testing
@testable import WalletHostRuntime
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A root host builds a plan's sandbox root once (its template) and copies it at each launch.
/// The first launch of a plan used to build its own root instead, so a one-shot `wallet-host
/// call` always paid for a root built on its path; a runner now starts the template as it
/// makes its plan, and the first launch copies it.
@Suite("Sandbox templates built ahead", .serialized, .timeLimit(.minutes(1)),
       .enabled(if: geteuid() == 0 && KernelNamespaces.available, "templates are a root host's, and need the namespaces"))
struct SandboxTemplatesAheadTests {
    /// A plan of its own (a fresh bundle directory), so that no other test built its template.
    static func freshPlan() throws -> (SandboxPlan, TemporaryDirectory) {
        let bundle = try TemporaryDirectory(prefix: "wallet-host-template-bundle")
        let plan = SandboxPlan(readOnly: [bundle.url.path], writable: [], environment: [:], initPath: "/bin/true")
        return (plan, bundle)
    }

    @Test func aPlanPreparedAheadHasItsTemplateAtItsFirstLaunch() throws {
        let (plan, bundle) = try Self.freshPlan()
        defer { bundle.remove() }
        SandboxTemplates.prepare(plan)
        let descriptor = plan.withRootConfiguration { SandboxTemplates.descriptor(for: plan, config: $0) }
        #expect(descriptor >= 0)
        // What it holds is a mount namespace.
        var status = stat()
        #expect(fstat(descriptor, &status) == 0)
        let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")) ?? ""
        #expect(link.hasPrefix("mnt:["), "\(link)")
        // Prepared again, and asked again: the same template.
        SandboxTemplates.prepare(plan)
        #expect(plan.withRootConfiguration { SandboxTemplates.descriptor(for: plan, config: $0) } == descriptor)
    }

    @Test func aPlanNotPreparedBuildsItsOwnRootAtItsFirstLaunchAndTakesATemplateAtItsSecond() throws {
        let (plan, bundle) = try Self.freshPlan()
        defer { bundle.remove() }
        #expect(plan.withRootConfiguration { SandboxTemplates.descriptor(for: plan, config: $0) } == -1)
        #expect(plan.withRootConfiguration { SandboxTemplates.descriptor(for: plan, config: $0) } >= 0)
    }

    @Test func aPlanThatReusesNoRootGetsNoTemplate() throws {
        var (plan, bundle) = try Self.freshPlan()
        defer { bundle.remove() }
        plan.reusesRoot = false
        SandboxTemplates.prepare(plan)
        #expect(plan.withRootConfiguration { SandboxTemplates.descriptor(for: plan, config: $0) } == -1)
    }
}
