#if canImport(Glibc)
import Glibc
#endif

/// What the kernel answered the sandbox's probe (`wh_sandbox_probe`: a child cloned into the
/// sandbox's namespaces), read so that only a refusal lets `--sandbox auto` run extensions
/// unsandboxed: a transient failure (EAGAIN from a full process table, ENOMEM) is asked again,
/// and when it persists nothing is concluded and the launch fails (fail closed).
public enum SandboxProbeAnswer: Equatable, Sendable {
    /// The kernel made the namespaces and the child's mounts.
    case allowed
    /// The kernel refuses the sandbox: `auto` runs unsandboxed (with its warning), `required` fails.
    case refused(reason: String)
    /// The probe failed for a reason that says nothing of the kernel's will; every launch fails
    /// until a probe answers.
    case undetermined(reason: String)

    /// The clone errors that mean the kernel refuses the namespaces: EPERM (not allowed: no
    /// privilege, a seccomp or LSM policy), EINVAL (a kernel without one of the namespaces),
    /// ENOSPC (the limit of namespaces of a kind, `user.max_*_namespaces`, 0 included) and EUSERS
    /// (the same limit on kernels before 4.9). Every other errno (EAGAIN, ENOMEM, ...) may pass.
    public static let refusingErrors: Set<Int32> = [EPERM, EINVAL, ENOSPC, EUSERS]

    /// How many times a transient failure is asked again before ``undetermined(reason:)``.
    public static let attempts = 5

    /// What one probe's result `code` means: 0, a clone errno (above 0), minus the child's failed
    /// step (-1 to -3 the user namespace's id maps, -4 private mounts, -5 a tmpfs), or -100 (the
    /// child died of a signal).
    public init(code: Int32) {
        switch code {
        case 0:
            self = .allowed
        case 1...:
            let error = "\(String(cString: strerror(code))) (errno \(code))"
            self = Self.refusingErrors.contains(code)
                ? .refused(reason: "sandbox namespaces (clone) failed: \(error)")
                : .undetermined(reason: "the sandbox probe's clone failed: \(error)")
        case -3 ... -1:
            self = .refused(reason: "the kernel refused the user namespace's id maps")
        case -5 ... -4:
            self = .refused(reason: "the kernel refused mounts in a new mount namespace")
        default:
            self = .undetermined(reason: "the sandbox probe's child died before it answered")
        }
    }

    /// Runs `probe` until it answers ``allowed`` or ``refused(reason:)``, at most `attempts`
    /// times, calling `pause` with the attempt's number (1, 2, ...) before each retry.
    /// - Returns: The first definite answer; else ``undetermined(reason:)`` naming the last
    ///   failure, the number of tries, and that `--sandbox auto` fails closed.
    public static func asking(attempts: Int = attempts, probe: () -> Int32,
                              pause: (Int) -> Void = { usleep(useconds_t(1_000 << min($0, 6))) }) -> SandboxProbeAnswer {
        var last = SandboxProbeAnswer.undetermined(reason: "the sandbox probe did not run")
        for attempt in 1...max(1, attempts) {
            if attempt > 1 { pause(attempt - 1) }
            last = SandboxProbeAnswer(code: probe())
            if case .undetermined = last { continue }
            return last
        }
        guard case .undetermined(let reason) = last else { return last }
        return .undetermined(reason: "could not tell whether the kernel allows the sandbox: \(reason), "
                             + "\(max(1, attempts)) times; an extension is not run unsandboxed on a guess, so this launch fails "
                             + "(--sandbox off runs extensions without the sandbox)")
    }
}
