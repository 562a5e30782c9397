import Testing
@testable import WalletHostRuntime

/// The cgroup v1 mounts and this process's groups, read from the two files once.
struct ControlGroupMountsTests {
    static let mountInfo = """
        22 27 0:21 / /proc rw,relatime - proc proc rw
        30 25 0:26 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
        31 25 0:27 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
        32 25 0:28 /outer /sys/fs/cgroup/pids\\040here rw,relatime shared:9 - cgroup cgroup rw,pids
        33 25 0:29 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
        """
    static let groups = """
        8:pids:/outer/job
        4:memory:/process_api/abc
        1:cpu,cpuacct:/
        0::/
        """

    @Test("each controller's group is its mount point plus the process's path below the mount's root")
    func ownGroups() throws {
        let mounts = ControlGroupMounts(mountInfo: Self.mountInfo, groups: Self.groups)
        #expect(try mounts.ownGroup(controller: "memory") == "/sys/fs/cgroup/memory/process_api/abc")
        #expect(try mounts.ownGroup(controller: "cpu") == "/sys/fs/cgroup/cpu")
        // Optional fields before the separator, an escaped space, a mount of a subgroup.
        #expect(try mounts.ownGroup(controller: "pids") == "/sys/fs/cgroup/pids here/job")
    }

    @Test("a controller without a v1 mount, or a group outside the mount, names what is missing")
    func missing() {
        let mounts = ControlGroupMounts(mountInfo: Self.mountInfo, groups: "8:pids:/elsewhere\n")
        #expect(throws: ControlGroupError.self) { try mounts.ownGroup(controller: "blkio") }
        #expect(throws: ControlGroupError.self) { try mounts.ownGroup(controller: "pids") }
    }
}
