import Foundation
import Testing
import Wallet
import WalletBundleInspection
import WalletHostRuntime
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A host serving many extensions holds more descriptors than an extension may: spawning must
/// still work (the child's descriptor limit is set once its descriptors are in place).
@Suite(.serialized, .timeLimit(.minutes(1)))
struct ManyDescriptorsTests {
    @Test func anExtensionStartsWhileTheHostHoldsMoreDescriptorsThanItsLimit() async throws {
        var held: [Int32] = []
        defer { for fd in held { close(fd) } }
        for _ in 0..<(ProcessLimits(dataBytes: nil).openFiles ?? 256) + 50 {
            let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
            try #require(fd >= 0)
            held.append(fd)
        }
        let (bundle, _) = BundleLoader.wallet.loadExtension(at: ExampleBundles.testHelperAppex)
        let runner = ExtensionRunner(descriptor: ExtensionDescriptor(bundle: try #require(bundle), appGroups: [:]),
                                     configuration: HostConfiguration())
        let handshake = await runner.prewarm()
        #expect((try? handshake.get()) != nil, "\(handshake)")
        await runner.stop()
    }
}

/// One `EMFILE` at a launch used to turn the sandbox off for the daemon's life; the daemon now
/// lifts its own descriptor limit to the hard one at start, so connections and warm extensions
/// do not run it out at 1,024.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct DaemonDescriptorLimitTests {
    /// The soft and hard `Max open files` of a process, from /proc/PID/limits.
    static func openFileLimits(of pid: Int32) throws -> (soft: String, hard: String) {
        let limits = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
        let line = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        let fields = line.dropFirst("Max open files".count).split(separator: " ")
        return (String(fields[0]), String(fields[1]))
    }

    @Test("serve raises its soft open-file limit to the hard one",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit"), "needs prlimit"))
    func serveRaisesItsDescriptorLimit() async throws {
        let daemon = try DaemonProcess(launcher: ["/usr/bin/prlimit", "--nofile=512:8192", "--"])
        defer { daemon.signal(SIGKILL) }
        try await daemon.waitUntilServing()
        let limits = try Self.openFileLimits(of: daemon.pid)
        #expect(limits.hard == "8192")
        #expect(limits.soft == "8192", "the daemon kept a soft limit of \(limits.soft)")
    }
}
