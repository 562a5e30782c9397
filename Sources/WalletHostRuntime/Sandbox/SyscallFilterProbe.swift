import CWalletSpawn
#if canImport(Glibc)
import Glibc
#endif

/// Whether the kernel lets the sandbox's init install its seccomp filter (no nested namespaces,
/// `ptrace`, `mount`, `keyctl` for the extension and what it starts). Where namespaces are
/// allowed and this is refused, every sandboxed launch fails at the init's setup.
public enum SyscallFilterProbe {
    /// Asks the kernel now (a forked child installs a filter and checks it acts): nil where
    /// seccomp filters work, else why not.
    public static func refusal() -> String? {
        var errorNumber: Int32 = 0
        let outcome = wh_syscall_filter_probe(&errorNumber)
        return refusal(outcome: outcome, errorNumber: errorNumber)
    }

    /// What a probe's outcome (`WH_FILTER_PROBE_*`) and errno mean: nil when the filter acted.
    /// Only a refusal by the kernel is said to be one; a fork or wait that failed says that
    /// nothing is known.
    public static func refusal(outcome: Int32, errorNumber: Int32) -> String? {
        switch outcome {
        case WH_FILTER_PROBE_ACTS: return nil
        case WH_FILTER_PROBE_DID_NOT_ACT: return "a seccomp filter was installed but did not act (getppid was not refused)"
        case WH_FILTER_PROBE_REFUSED where errorNumber == EINVAL:
            return "the kernel has no seccomp filter mode (prctl PR_SET_SECCOMP: EINVAL; CONFIG_SECCOMP_FILTER)"
        case WH_FILTER_PROBE_REFUSED: return "the kernel refused a seccomp filter: \(describe(errorNumber))"
        case WH_FILTER_PROBE_FORK_FAILED:
            return "could not fork the child that tries a seccomp filter (\(describe(errorNumber))); whether filters work is unknown"
        case WH_FILTER_PROBE_WAIT_FAILED:
            return "could not wait for the child that tries a seccomp filter (waitpid: \(describe(errorNumber))); whether filters work is unknown"
        case WH_FILTER_PROBE_CHILD_DIED:
            return "the child that installs a seccomp filter did not exit normally"
                + (errorNumber > 0 ? " (signal \(errorNumber))" : "")
        default: return "the seccomp filter probe answered \(outcome), which this wallet-host does not know"
        }
    }

    private static func describe(_ errorNumber: Int32) -> String {
        "\(String(cString: strerror(errorNumber))) (errno \(errorNumber))"
    }
}
