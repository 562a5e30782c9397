import WalletHostRuntime

extension DoctorChecks {
    /// Whether the kernel bounds the App Group containers (each an ext4 image of its own, sized
    /// by `--container-quota`) or the quota is a walk of each container that an extension can
    /// walk around.
    static func containerQuota() -> DoctorFinding {
        switch ContainerVolume.kernelEnforcement {
        case .kernel:
            return DoctorFinding("container-quota", .ok, "loop devices (/dev/loop-control) and mkfs.ext4 are there: "
                                 + "each App Group container is an ext4 image of its own, sized by --container-quota, "
                                 + "so the kernel enforces the quota (bytes and files)")
        case .walk(let reason):
            return DoctorFinding("container-quota", .warning, "\(reason): the container quota is a walk of each container "
                                 + "twice a second, which stops the extension past it but bounds nothing between walks, "
                                 + "and cannot see files kept open after unlinking by processes it may not inspect",
                                 fix: "run the host as root with loop devices (/dev/loop-control; in a container, --privileged "
                                     + "or --device /dev/loop-control) and e2fsprogs installed (scripts/install-dependencies)")
        }
    }
}
