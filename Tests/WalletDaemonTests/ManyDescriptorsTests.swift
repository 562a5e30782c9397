import Foundation
import Testing
import WalletHostCore
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
        let (bundle, _) = BundleLoader().loadExtension(at: ExampleBundles.testHelperAppex)
        let runner = ExtensionRunner(descriptor: ExtensionDescriptor(bundle: try #require(bundle), appGroups: [:]),
                                     configuration: HostConfiguration())
        let handshake = await runner.prewarm()
        #expect((try? handshake.get()) != nil, "\(handshake)")
        await runner.stop()
    }
}
