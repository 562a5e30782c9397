import Foundation
import Testing
import WalletHostRuntime
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A test run killed by a timeout skips its exit handler and leaves the App Group images it
/// mounted; thousands of them made every sandboxed launch 160-560 ms. The next test process
/// unmounts those whose process is gone, and only those; `doctor` names them.
@Suite("Leftover App Group images", .serialized, .timeLimit(.minutes(2)),
       .enabled(if: ContainerVolume.kernelEnforcement == .kernel, "needs a root host with loop devices and mkfs.ext4"))
struct LeftoverImageMountsTests {
    /// A PID that ran and is gone: a process started and waited for.
    static func deadPID() throws -> pid_t {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    /// An App Group container on its image in `wallet-host-leftover-PID-UUID/AppGroups`, after
    /// `padding` small tmpfs mounts in the same directory.
    static func mountedContainer(owner: pid_t, padding: Int = 0) throws -> (directory: URL, container: String) {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("wallet-host-leftover-\(owner)-\(UUID().uuidString)", isDirectory: true)
        for index in 0..<padding {
            let point = directory.appendingPathComponent("padding-\(index)").path
            try FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: true)
            guard mount("tmpfs", point, "tmpfs", 0, "size=4k") == 0 else { throw POSIXError(.EPERM) }
        }
        let container = directory.appendingPathComponent("AppGroups/group.com.example.leftover").path
        try FileManager.default.createDirectory(atPath: (container as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try ContainerVolume.prepare([container], quotaBytes: 8 << 20)
        return (directory, container)
    }

    @Test func theImagesOfAProcessThatIsGoneAreUnmountedAndARunningOnesAreKept() throws {
        let gone = try Self.mountedContainer(owner: try Self.deadPID())
        let running = try Self.mountedContainer(owner: getpid())
        defer {
            TemporaryDirectory(existing: gone.directory).remove()
            TemporaryDirectory(existing: running.directory).remove()
        }
        #expect(ContainerVolume.isMounted(gone.container))
        #expect(ContainerVolume.isMounted(running.container))
        let leftovers = MountTable.current()?.leftoverImages() ?? []
        #expect(leftovers.contains(gone.container), "\(leftovers)")
        #expect(!leftovers.contains(running.container))

        #expect(TemporaryDirectory.releaseLeftoverImages() >= 1)
        #expect(!ContainerVolume.isMounted(gone.container))
        #expect(ContainerVolume.isMounted(running.container))
        #expect(MountTable.current()?.leftoverImages().contains(gone.container) == false)
    }

    @Test func removingATemporaryDirectoryUnmountsItsImages() throws {
        // The image past 40 more mounts: far past the first few kilobytes of /proc/self/mountinfo,
        // all that String(contentsOfFile:) read of it.
        let running = try Self.mountedContainer(owner: getpid(), padding: 40)
        #expect(ContainerVolume.isMounted(running.container))
        #expect((MountTable.current()?.mounts.count ?? 0) > 40)
        TemporaryDirectory(existing: running.directory).remove()
        #expect(!ContainerVolume.isMounted(running.container))
        #expect(!FileManager.default.fileExists(atPath: running.directory.path))
    }
}
