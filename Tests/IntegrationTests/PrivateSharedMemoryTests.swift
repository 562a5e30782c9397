import Foundation
import Testing
import WalletHostRuntime
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 31, break 7: `/dev/shm` lived in the template's `/dev`, so every launch of an extension
/// (one after another, or side by side) shared it. Each launch now gets a tmpfs of its own there,
/// bounded in size and files, gone with the launch.
@Suite("Sandbox: /dev/shm is each launch's own", .serialized, .timeLimit(.minutes(2)),
       .enabled(if: KernelNamespaces.available, "the kernel refuses the namespaces the sandbox needs"))
struct PrivateSharedMemoryTests {
    /// Says whether it finds the mark a launch leaves in /dev/shm (its own test's, or the one
    /// named @FIND@), leaves its own, notes the sizes of /dev/shm and /tmp, and stays running
    /// when its container holds `stay`.
    static let script = """
        #!/bin/sh
        if [ -e "/dev/shm/mark-@FIND@" ]; then echo seen; else echo unseen; fi >> "@OWN@/launches"
        echo secret > "/dev/shm/mark-@TOKEN@"
        stat -f -c "%S %b %c" /dev/shm > "@OWN@/shm-size"
        stat -f -c "%S %b %c" /tmp > "@OWN@/tmp-size"
        [ -e "@OWN@/stay" ] || exit 0
        exec sleep 600.@TOKEN@
        """

    static func makeHostile(finding token: String? = nil) throws -> HostileExtension {
        let hostile = try HostileExtension(script: script)
        try hostile.rewriteScript { $0.replacingOccurrences(of: "@FIND@", with: token ?? hostile.token) }
        return hostile
    }

    static func launches(_ hostile: HostileExtension) -> [String] {
        (hostile.containerFile("launches") ?? "").split(separator: "\n").map(String.init)
    }

    @Test("what one launch leaves in /dev/shm, the next launch of the same runner (the same template) does not see")
    func nextLaunchSeesNothing() async throws {
        let hostile = try Self.makeHostile()
        defer { hostile.cleanUp() }
        let (runner, _) = hostile.runner(sandbox: .required)
        // The second launch of a plan builds its template, the third copies it.
        for launch in 1...3 {
            _ = await runner.prewarm()
            try await waitFor("launch \(launch)", timeout: .seconds(5)) { Self.launches(hostile).count == launch }
        }
        #expect(Self.launches(hostile) == ["unseen", "unseen", "unseen"], "a launch read the one before's /dev/shm")
    }

    @Test("a launch running beside another of the same extension, or of another extension, does not see its /dev/shm")
    func concurrentLaunchesSeeNothing() async throws {
        let first = try Self.makeHostile()
        defer { first.cleanUp() }
        let (firstRunner, _) = first.runner(sandbox: .required) { $0.handshakeTimeout = .seconds(20) }
        let (sameRunner, _) = first.runner(sandbox: .required) { $0.handshakeTimeout = .seconds(20) }
        // One launch that ends, so that the next builds the plan's template.
        _ = await firstRunner.prewarm()
        try await waitFor("the first launch", timeout: .seconds(5)) { Self.launches(first).count == 1 }
        try Data().write(to: first.ownContainer.appendingPathComponent("stay"))
        let firstLaunch = Task { await firstRunner.prewarm() }
        defer { firstLaunch.cancel() }
        try await waitFor("the running launch's mark", timeout: .seconds(5)) { Self.launches(first).count == 2 }
        // The same extension again, in another runner with an equal plan: the same template.
        let sameLaunch = Task { await sameRunner.prewarm() }
        defer { sameLaunch.cancel() }
        try await waitFor("the concurrent launch", timeout: .seconds(5)) { Self.launches(first).count == 3 }
        #expect(Self.launches(first) == ["unseen", "unseen", "unseen"], "a concurrent launch of the same extension read its /dev/shm")
        // Another extension, looking for the first one's mark.
        let other = try Self.makeHostile(finding: first.token)
        defer { other.cleanUp() }
        let (otherRunner, _) = other.runner(sandbox: .required)
        _ = await otherRunner.prewarm()
        try await waitFor("the other extension's launch", timeout: .seconds(5)) { Self.launches(other).count == 1 }
        #expect(Self.launches(other) == ["unseen"], "another extension read the first one's /dev/shm")
    }

    @Test("/dev/shm and /tmp are bounded: the extension's memory limit in bytes, 1,024 and 4,096 files")
    func bounded() async throws {
        let hostile = try Self.makeHostile()
        defer { hostile.cleanUp() }
        let (runner, _) = hostile.runner(sandbox: .required) { $0.memoryLimitOverride = 40 << 20 }
        _ = await runner.prewarm()
        try await waitFor("the sizes", timeout: .seconds(5)) { hostile.containerFile("tmp-size") != nil }
        for (name, inodes) in [("shm-size", 1024), ("tmp-size", 4096)] {
            let fields = (hostile.containerFile(name) ?? "").split(separator: " ").compactMap { Int($0) }
            try #require(fields.count == 3, "\(name): \(hostile.containerFile(name) ?? "nothing")")
            #expect(fields[0] * fields[1] == 40 << 20, "\(name): \(fields)")
            #expect(fields[2] == inodes, "\(name): \(fields)")
        }
    }
}
