import Foundation
import Testing
import Wallet
import WalletDaemon
import WalletHostRuntime
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The pool's crash backoff runs on its configuration's clock: a test moves a ``TestClock``
/// instead of waiting out the delays, and sees that a crash-looping extension gets no relaunch.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct CrashRelaunchClockTests {
    static let helper = "com.example.testhelper.TestHelperExt"

    @Test("a crashed kept-warm extension is relaunched when the clock reaches its backoff; a crash-looping one never")
    func crashBackoffRunsOnThePoolsClock() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.testHelperApp])
        let clock = TestClock()
        var configuration = HostConfiguration()
        configuration.clock = clock
        let state = StateDirectory(url: TemporaryDirectory.uniqueURL(prefix: "wallet-host-state"))
        let hub = EventHub(log: nil)
        let pool = ExtensionPool(configuration: configuration, appsDirectory: apps, device: SimulatedDevice(state: state),
                                 keepWarm: true, hub: hub)
        defer { Task { await pool.stopAll(reason: "test over") } }
        func pid() async -> Int32? { await pool.processes().first { $0.bundleIdentifier == Self.helper }?.pid }
        func killAndWaitForExit(_ pid: Int32) async {
            let from = hub.nextSequence
            kill(pid, SIGKILL)
            #expect(await hub.firstEvent(from: from, within: .seconds(10)) { $0.kind == .exit && $0.pid == pid } != nil)
        }
        await pool.reload()
        let first = try #require(await pid(), "kept warm at the reload")
        await killAndWaitForExit(first)
        try await waitFor("the runner saw its process end") { await pid() == nil }

        pool.processCrashed(bundleIdentifier: Self.helper)
        #expect(await clock.waitForSleepers(1), "the relaunch's timer was never armed")
        clock.advance(by: .milliseconds(99))
        #expect(clock.sleeperCount == 1, "relaunched before its 100 ms backoff")
        #expect(await pid() == nil)
        let beforeRelaunch = hub.nextSequence
        clock.advance(by: .milliseconds(1))
        #expect(await hub.firstEvent(from: beforeRelaunch, within: .seconds(10)) { $0.kind == .handshake } != nil,
                "no relaunch once the clock reached the backoff")
        try await waitFor("the relaunched process listed") { await pid().map { $0 != first } ?? false }

        // Two more crashes within the window: crash-looping, and the relaunch armed by the second is cancelled.
        pool.processCrashed(bundleIdentifier: Self.helper)
        pool.processCrashed(bundleIdentifier: Self.helper)
        #expect(clock.sleeperCount == 0, "a relaunch is still scheduled for a crash-looping extension")
        await killAndWaitForExit(try #require(await pid()))
        clock.advance(by: .seconds(60))
        try await waitFor("the runner saw its process end") { await pid() == nil }
        let listing = try #require(await pool.processes().first { $0.bundleIdentifier == Self.helper })
        #expect(listing.state == "crash-looping")
    }
}
