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
        let code = wh_syscall_filter_probe()
        switch code {
        case 0: return nil
        case -1: return "a seccomp filter was installed but did not act (getppid was not refused)"
        case ...(-2): return "the child that installs a seccomp filter did not exit normally"
        case EINVAL: return "the kernel has no seccomp filter mode (prctl PR_SET_SECCOMP: EINVAL; CONFIG_SECCOMP_FILTER)"
        default: return "the kernel refused a seccomp filter: \(String(cString: strerror(code))) (errno \(code))"
        }
    }
}
