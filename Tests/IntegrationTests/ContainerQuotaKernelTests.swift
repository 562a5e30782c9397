import Foundation
import Testing
import WalletHostRuntime
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 31, break 2: the container quota was a walk of the container, and an extension walked
/// around it (files below 64 directories, files kept open after unlinking them, a directory
/// the walk may not enter, empty files that cost inodes only). On a root host each App Group
/// container is now a file system of its own, sized by the quota: every one of these writes
/// fails at the quota, whatever the walk sees.
@Suite("Container quota: the kernel bounds it", .serialized, .timeLimit(.minutes(3)),
       .enabled(if: KernelNamespaces.available, "the kernel refuses the namespaces the sandbox needs"),
       .enabled(if: ContainerVolume.kernelEnforcement == .kernel, "needs a root host with loop devices and mkfs.ext4"))
struct ContainerQuotaKernelTests {
    static let quota = 8 << 20

    /// Python shared by the walk-arounds: `fill(directory, keep_open)` writes 2 MiB files until a
    /// write fails or 64 MiB are written; `report(value)` frees the container and writes `value`
    /// into `written` there.
    static let prelude = """
        #!/usr/bin/python3
        import os, shutil
        chunk = b"x" * (1 << 20)
        own = "@OWN@"
        held = []
        def fill(directory, keep_open=False):
            written = 0
            try:
                for n in range(32):
                    name = os.path.join(directory, "fill%d" % n)
                    f = open(name, "wb", buffering=0)
                    if keep_open:
                        os.unlink(name)
                        held.append(f)
                    for _ in range(2):
                        written += f.write(chunk)
                    if not keep_open:
                        f.close()
            except OSError:
                pass
            return written
        def report(value):
            for f in held:
                try:
                    f.close()
                except OSError:
                    pass
            for name in os.listdir(own):
                path = os.path.join(own, name)
                if name not in ("Library",):
                    os.chmod(path, 0o700) if os.path.isdir(path) and not os.path.islink(path) else None
                    shutil.rmtree(path, ignore_errors=True) if os.path.isdir(path) else os.unlink(path)
            with open(os.path.join(own, "written"), "w") as f:
                f.write(str(value))

        """

    static let deepFiles = prelude + """
        path = own
        for _ in range(70):
            path = os.path.join(path, "d")
        os.makedirs(path)
        report(fill(path))
        """

    static let unlinkedFiles = prelude + """
        report(fill(own, keep_open=True))
        """

    static let lockedDirectory = prelude + """
        locked = os.path.join(own, "locked")
        os.mkdir(locked)
        written = fill(locked)
        os.chmod(locked, 0)
        report(written + fill(own))
        """

    static let emptyFiles = prelude + """
        directory = os.path.join(own, "empty")
        os.mkdir(directory)
        created = 0
        try:
            for n in range(20000):
                open(os.path.join(directory, str(n)), "w").close()
                created += 1
        except OSError:
            pass
        report(created)
        """

    struct WalkAround: Sendable, CustomTestStringConvertible {
        var name: String
        var script: String
        /// The most `written` may say: bytes, or files for the empty ones.
        var bound: Int
        var testDescription: String { name }
    }

    static let walkArounds = [
        WalkAround(name: "files below 70 directories", script: deepFiles, bound: quota + (2 << 20)),
        WalkAround(name: "files kept open after unlinking", script: unlinkedFiles, bound: quota + (2 << 20)),
        WalkAround(name: "a mode-000 directory", script: lockedDirectory, bound: quota + (2 << 20)),
        WalkAround(name: "empty files (inodes)", script: emptyFiles, bound: ContainerVolume.inodes(forQuota: quota)),
    ]

    @Test("a hostile extension's walk-around of the quota stops at it", arguments: walkArounds)
    func walkAroundStops(_ walkAround: WalkAround) async throws {
        let hostile = try HostileExtension(script: walkAround.script)
        defer { hostile.cleanUp() }
        let (runner, events) = hostile.runner(sandbox: .auto) {
            $0.containerQuotaBytes = Self.quota
            $0.handshakeTimeout = .seconds(30)
        }
        _ = await runner.prewarm()
        let stopped = events.events(.exit).contains { $0.message.contains("over its container quota") }
        if let text = hostile.containerFile("written"), let written = Int(text) {
            #expect(written <= walkAround.bound, "\(walkAround.name): the extension stored \(written), past the quota")
        } else {
            // Stopped by the watch before it could say how much it wrote.
            #expect(stopped, "the extension neither reported nor was stopped: \(events.events.map(\.message))")
        }
        #expect(ContainerVolume.isMounted(hostile.ownContainer.path))
    }

    @Test("the container is its image, mounted once: its files outlive the run, a later host finds it mounted")
    func imagePersists() async throws {
        let hostile = try HostileExtension(script: """
            #!/bin/sh
            n=$(cat "@OWN@/count" 2>/dev/null || echo 0)
            echo $((n + 1)) > "@OWN@/count"
            """)
        defer { hostile.cleanUp() }
        let image = hostile.state.appendingPathComponent("AppGroups/.images/group.com.example.hostile.ext4")
        let (runner, _) = hostile.runner(sandbox: .auto) { $0.containerQuotaBytes = Self.quota }
        _ = await runner.prewarm()
        #expect(hostile.containerFile("count") == "1")
        let attributes = try FileManager.default.attributesOfItem(atPath: image.path)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        #expect(ContainerVolume.isMounted(hostile.ownContainer.path))
        let inode = try #require(attributes[.systemFileNumber] as? Int)
        // Another host (as the next `wallet-host call` is) finds it mounted and the file there.
        let (fresh, _) = hostile.runner(sandbox: .auto) { $0.containerQuotaBytes = Self.quota }
        _ = await fresh.prewarm()
        #expect(hostile.containerFile("count") == "2")
        // The same image, not made again.
        #expect(try FileManager.default.attributesOfItem(atPath: image.path)[.systemFileNumber] as? Int == inode)
    }
    @Test("a launch whose container is mounted already pays no mkfs and no mount: prepare's median is under 0.2 ms")
    func mountedContainerIsCheap() throws {
        let hostile = try HostileExtension(script: "#!/bin/sh\nexit 0\n")
        defer { hostile.cleanUp() }
        let container = hostile.ownContainer.path
        let first = ContinuousClock.now
        try ContainerVolume.prepare([container], quotaBytes: Self.quota)
        let making = ContinuousClock.now - first
        #expect(ContainerVolume.isMounted(container))
        var durations: [Duration] = []
        for _ in 0..<200 {
            let started = ContinuousClock.now
            try ContainerVolume.prepare([container], quotaBytes: Self.quota)
            durations.append(ContinuousClock.now - started)
        }
        let median = durations.sorted()[durations.count / 2]
        print("container image: made and mounted in \(making), then prepare's median \(median)")
        #expect(median < .microseconds(200), "\(median)")
    }
}
