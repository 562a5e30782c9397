import Foundation
import WalletHostRuntime

extension DoctorChecks {
    /// How large the mount table is, how many of its mounts are App Group images, and how many of
    /// those processes that are gone left behind; with what copying the table costs a sandboxed
    /// launch here, measured.
    static func mountTable() -> DoctorFinding {
        guard let table = MountTable.current() else {
            return DoctorFinding("mount-table", .warning, "cannot read /proc/self/mountinfo: how much a sandboxed launch "
                                 + "pays for copying the mount table is unknown", fix: "mount /proc")
        }
        let assessment = MountTable.Assessment(table, leftovers: table.leftoverImages(),
                                               copyMilliseconds: namespaceCopyMilliseconds())
        guard let fix = assessment.fix else { return DoctorFinding("mount-table", .ok, assessment.detail) }
        return DoctorFinding("mount-table", .warning, assessment.detail, fix: fix)
    }

    /// What a clone into the sandbox's namespaces costs here, the mount table copied (the
    /// sandbox's own probe, median of five), in ms; nil where the kernel refuses the namespaces.
    static func namespaceCopyMilliseconds() -> Double? {
        guard SandboxStatus.refusal == nil else { return nil }
        let clock = ContinuousClock()
        let samples = (0..<5).map { _ in
            let elapsed = clock.measure { _ = SandboxStatus.probe() }
            return Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        }
        return samples.sorted()[samples.count / 2]
    }
}
