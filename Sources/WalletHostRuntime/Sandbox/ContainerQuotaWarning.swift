import Synchronization

/// The run's one warning that the container quota is a walk here (no container images: a host
/// that is not root, or no loop devices or mkfs.ext4), and what that leaves unbounded.
enum ContainerQuotaWarning {
    private static let warned = Mutex(false)

    /// Warns once a run, through ``SandboxStatus/onWarning(_:)``'s sink, when `enforcement` is a walk.
    static func warnOnce(_ enforcement: ContainerVolume.Enforcement) {
        guard case .walk(let reason) = enforcement else { return }
        let first = warned.withLock { warned in
            defer { warned = true }
            return !warned
        }
        guard first else { return }
        SandboxStatus.emitWarning("warning: the container quota is a walk of the App Group containers here (\(reason)): "
                                  + "an extension is stopped past it, but nothing bounds what it writes between two walks "
                                  + "(twice a second) beyond the largest file (RLIMIT_FSIZE)")
    }
}
