import Foundation
import Testing
import WalletHostRuntime
import WalletTestSupport

/// The sandbox's init hands fds 0-4 to the extension and keeps none of them: an extension that
/// closes fd 4 is seen to have closed it, sandboxed as unsandboxed.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct SandboxInitDescriptorTests {
    /// With the init holding a copy of fd 4, the host saw no end of the pipe: the handshake
    /// waited out its 5 s timeout (a call, its deadline and then the hang grace).
    @Test("a sandboxed extension that closes fd 4 is reported as such at once, not after the handshake timeout",
          .enabled(if: SandboxStatus.refusal == nil, "the kernel refuses the sandbox's namespaces"))
    func closedFd4IsSeenThroughTheInit() async throws {
        let hostile = try HostileExtension(script: """
            #!/bin/bash
            exec 4>&-
            exec sleep 60.@TOKEN@

            """)
        defer { hostile.cleanUp() }
        let (runner, _) = hostile.runner(sandbox: .required)
        let started = ContinuousClock.now
        let outcome = await runner.prewarm()
        let elapsed = ContinuousClock.now - started
        guard case .failure(let error) = outcome else {
            Issue.record("a process that closed fd 4 completed its handshake")
            return
        }
        #expect(error.message.contains("fd 4"), "\(error.message)")
        #expect(elapsed < .milliseconds(2500), "the closed fd 4 was seen after \(elapsed) (the handshake timeout is 5 s)")
        await runner.stop()
    }
}
