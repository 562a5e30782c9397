import Foundation
import Testing
import WalletHostRuntime
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 31, break 2, on a host that is not root: no container images there, so the quota is a
/// walk, and the walk's holes are closed as far as a walk can: files kept open after unlinking
/// count (the extension's /proc/PID/fd), a directory the walk cannot enter counts as full, a
/// tree deeper than 64 directories is walked. Run with `wallet-host` as another user (setpriv).
@Suite("Container quota: a host that is not root", .serialized, .timeLimit(.minutes(2)),
       .enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
                "runs wallet-host as another user with setpriv"),
       .enabled(if: KernelNamespaces.available, "the kernel refuses the namespaces the sandbox needs"),
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
struct UnprivilegedContainerQuotaTests {
    /// Walks around the quota as `@MODE@` says, then waits without answering.
    static let script = """
        #!/usr/bin/python3
        import os, time
        container = os.path.dirname(os.path.dirname(os.environ["XDG_CONFIG_HOME"]))
        chunk = b"x" * (1 << 20)
        held = []
        def fill(directory, keep_open=False):
            for n in range(16):
                name = os.path.join(directory, "fill%d" % n)
                f = open(name, "wb", buffering=0)
                if keep_open:
                    os.unlink(name)
                    held.append(f)
                for _ in range(2):
                    f.write(chunk)
                if not keep_open:
                    f.close()
        try:
            if "@MODE@" == "unlinked":
                fill(container, keep_open=True)
            elif "@MODE@" == "locked":
                locked = os.path.join(container, "locked")
                os.mkdir(locked)
                fill(locked)
                os.chmod(locked, 0)
            else:
                path = container
                for _ in range(70):
                    path = os.path.join(path, "d")
                os.makedirs(path)
                fill(path)
        except OSError:
            pass
        time.sleep(60)
        """

    @Test("the walk stops an extension that walks around it", arguments: ["unlinked", "locked", "deep"])
    func walkAroundIsStopped(mode: String) throws {
        let root = try TemporaryDirectory(prefix: "wallet-host-unprivileged")
        defer { root.remove() }
        _ = chown(root.url.path, UnprivilegedHostLimitsTests.user, UnprivilegedHostLimitsTests.user)
        let appex = try UnprivilegedHostLimitsTests.helperBundle(executable: Self.script.replacingOccurrences(of: "@MODE@", with: mode))
        defer { try? FileManager.default.removeItem(at: appex.deletingLastPathComponent().deletingLastPathComponent()) }
        let started = ContinuousClock.now
        let run = try WalletHostCommand.run(["call", appex.path, "status", "--state", try UnprivilegedHostLimitsTests.state(mode, in: root),
                                             "--sandbox", "required", "--container-quota", "4MB", "--deadline", "status=30s"],
                                            launcher: UnprivilegedHostLimitsTests.launcher)
        let output = run.standardOutput + run.standardError
        #expect(output.contains("over its container quota"), "\(output)")
        #expect(ContinuousClock.now - started < .seconds(15), "not stopped before the deadline: \(output)")
        // Said plainly: the quota is a walk here.
        #expect(run.standardError.contains("the container quota is a walk"), "\(run.standardError)")
    }
}
