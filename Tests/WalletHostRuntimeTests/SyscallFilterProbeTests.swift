import CWalletSpawn
import Testing
import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

/// What the seccomp probe's outcomes say: only the kernel's refusal is called one.
@Suite("The seccomp filter probe's messages")
struct SyscallFilterProbeTests {
    @Test("a failed fork or wait says nothing is known of seccomp; a refusal names the errno; each outcome has its own message")
    func distinctMessages() throws {
        #expect(SyscallFilterProbe.refusal(outcome: WH_FILTER_PROBE_ACTS, errorNumber: 0) == nil)
        let fork = try #require(SyscallFilterProbe.refusal(outcome: WH_FILTER_PROBE_FORK_FAILED, errorNumber: EAGAIN))
        #expect(fork.hasPrefix("could not fork the child that tries a seccomp filter"), "\(fork)")
        #expect(!fork.contains("refused"), "a failed fork is not the kernel refusing a filter: \(fork)")
        let wait = try #require(SyscallFilterProbe.refusal(outcome: WH_FILTER_PROBE_WAIT_FAILED, errorNumber: ECHILD))
        #expect(wait.contains("waitpid") && wait.contains("errno \(ECHILD)") && !wait.contains("refused"), "\(wait)")
        let refused = try #require(SyscallFilterProbe.refusal(outcome: WH_FILTER_PROBE_REFUSED, errorNumber: EACCES))
        #expect(refused.hasPrefix("the kernel refused a seccomp filter") && refused.contains("errno \(EACCES)"))
        #expect(SyscallFilterProbe.refusal(outcome: WH_FILTER_PROBE_REFUSED, errorNumber: EINVAL)?.contains("CONFIG_SECCOMP_FILTER") == true)
        #expect(SyscallFilterProbe.refusal(outcome: WH_FILTER_PROBE_CHILD_DIED, errorNumber: SIGKILL)?.contains("signal \(SIGKILL)") == true)
        let outcomes = [WH_FILTER_PROBE_DID_NOT_ACT, WH_FILTER_PROBE_REFUSED, WH_FILTER_PROBE_FORK_FAILED, WH_FILTER_PROBE_WAIT_FAILED,
                        WH_FILTER_PROBE_CHILD_DIED]
        let messages = Set(outcomes.compactMap { SyscallFilterProbe.refusal(outcome: $0, errorNumber: EPERM) })
        #expect(messages.count == outcomes.count)
    }

    @Test("the probe run here agrees with itself: an outcome this host knows")
    func probeRuns() {
        var errorNumber: Int32 = 0
        let outcome = wh_syscall_filter_probe(&errorNumber)
        #expect([WH_FILTER_PROBE_ACTS, WH_FILTER_PROBE_DID_NOT_ACT, WH_FILTER_PROBE_REFUSED].contains(outcome), "outcome \(outcome) errno \(errorNumber)")
    }
}
