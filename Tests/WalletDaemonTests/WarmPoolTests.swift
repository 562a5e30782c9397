import Foundation
import Testing
import WalletDaemon
import WalletTestSupport
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// Keep-warm, crash-loop backoff and live reload, with a real daemon and real extensions.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct WarmPoolTests {
    static let helper = "com.example.testhelper.TestHelperExt"

    @Test func aKilledWarmExtensionIsRelaunchedUntilItCrashLoopsThenAReloadRevivesIt() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.testHelperApp])
        let daemon = try await DaemonProcess(apps: apps, arguments: ["--keep-warm"]).waitUntilServing()
        var pid: Int32 = 0
        for crash in 1...3 {
            try await waitFor("warm before crash \(crash)") {
                guard let listing = try await daemon.process(Self.helper), let running = listing.pid, running != pid else { return false }
                pid = running
                return listing.state == "warm"
            }
            kill(pid, SIGKILL)
        }
        try await waitFor("crash-looping after 3 crashes") {
            try await daemon.process(Self.helper)?.state == "crash-looping"
        }
        // Left stopped: that no relaunch comes is CrashRelaunchClockTests' (on a test clock).
        let looping = try #require(try await daemon.process(Self.helper))
        #expect(looping.state == "crash-looping")
        #expect(looping.pid == nil)
        #expect(looping.crashes == 3)
        #expect(looping.lastError?.contains("SIGKILL") == true, "\(looping.lastError ?? "")")

        daemon.signal(SIGHUP)
        try await waitFor("warm again after SIGHUP") {
            try await daemon.process(Self.helper)?.state == "warm"
        }
    }

    /// The watch reloads 100-300 ms after the last change; the time allowed on top covers the
    /// relaunch on a machine other builds keep busy.
    @Test func aBundleCopiedInRebuiltAndRemovedIsPickedUpWithinASecond() async throws {
        let apps = try TemporaryDirectory(prefix: "wallet-host-apps").url
        let daemon = try await DaemonProcess(apps: apps, arguments: ["--keep-warm"]).waitUntilServing()
        #expect(try await daemon.processes().isEmpty)

        // Added: copied in under a temporary name, then renamed, as an installer does.
        let staging = apps.appendingPathComponent(".TestHelper.app.partial")
        try FileManager.default.copyItem(at: ExampleBundles.testHelperApp, to: staging)
        try FileManager.default.moveItem(at: staging, to: apps.appendingPathComponent("TestHelper.app"))
        var first: Int32 = 0
        try await waitFor("the copied bundle warm", timeout: .seconds(2.5)) {
            guard let pid = try await daemon.process(Self.helper)?.pid else { return false }
            first = pid
            return true
        }

        // Rebuilt: a new executable replaces the old one.
        let executable = apps.appendingPathComponent("TestHelper.app/PlugIns/TestHelperExt.appex/TestHelperExt")
        let rebuilt = executable.deletingLastPathComponent().appendingPathComponent(".TestHelperExt.new")
        try FileManager.default.copyItem(at: executable, to: rebuilt)
        #expect(rename(rebuilt.path, executable.path) == 0)
        try await waitFor("the rebuilt bundle relaunched", timeout: .seconds(2.5)) {
            guard let pid = try await daemon.process(Self.helper)?.pid else { return false }
            return pid != first
        }
        try await waitFor("the old process stopped") { !processExists(first) }

        // Removed.
        try FileManager.default.removeItem(at: apps.appendingPathComponent("TestHelper.app"))
        try await waitFor("the removed bundle gone", timeout: .seconds(2.5)) {
            try await daemon.process(Self.helper)?.pid == nil
        }
        let apps2 = try DaemonClient.decode(DaemonAPI.AppsList.self, from: try await daemon.call("apps.list"))
        #expect(apps2.apps.isEmpty)
    }

    /// Warm calls take the apps directory's watch's word that the bundle was not rebuilt; a call
    /// made at once after a rebuild, before the watch's reload, still gets the new build. Before
    /// each rebuild, calls go on until one took the watch's word (`host.status` counts them).
    /// Two rebuilds: Info.plist's time set through a hard link outside the bundle (which only a
    /// watch on the file itself sees), then the executable replaced by a rename.
    @Test func aCallRightAfterARebuildRunsTheNewBuild() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.testHelperApp])
        let appex = apps.appendingPathComponent("TestHelper.app/PlugIns/TestHelperExt.appex")
        let daemon = try await DaemonProcess(apps: apps, arguments: ["--keep-warm"]).waitUntilServing()
        try await waitFor("warm") { try await daemon.process(Self.helper)?.pid != nil }
        let client = try DaemonClient(connectingTo: daemon.socketPath)
        let params = JSONValue.object(["appex": .string(appex.path), "method": .string("status")])
        func callPID() async throws -> Int32? {
            let answer = try await client.call("extension.call", params)
            #expect(answer["succeeded"] == .bool(true), "\(answer)")
            guard case .integer(let pid)? = answer["report"]?["pid"] else { return nil }
            return Int32(pid)
        }
        let elsewhere = try TemporaryDirectory(prefix: "wallet-host-link").url.appendingPathComponent("Info.plist")
        let rebuilds: [(String, () throws -> Void)] = [
            ("Info.plist touched through a hard link", {
                #expect(link(appex.appendingPathComponent("Info.plist").path, elsewhere.path) == 0)
                var times = [timespec(tv_sec: time(nil) + 60, tv_nsec: 0), timespec(tv_sec: time(nil) + 60, tv_nsec: 0)]
                #expect(utimensat(AT_FDCWD, elsewhere.path, &times, 0) == 0)
            }),
            ("executable renamed over", {
                let executable = appex.appendingPathComponent("TestHelperExt")
                let rebuilt = appex.appendingPathComponent(".TestHelperExt.new")
                try FileManager.default.copyItem(at: executable, to: rebuilt)
                #expect(rename(rebuilt.path, executable.path) == 0)
            }),
        ]
        func checksSkipped() async throws -> Int {
            try await client.call("host.status", [String: String](), as: DaemonAPI.Status.self).bundleChecksSkipped
        }
        for (rebuild, change) in rebuilds {
            // Once the watch has settled, the first call looks at the files and the next one
            // takes the watch's word.
            let before = try #require(try await callPID())
            let skipped = try await checksSkipped()
            try await waitFor("\(rebuild): a call that took the watch's word") {
                #expect(try await callPID() == before)
                return try await checksSkipped() > skipped
            }
            try change()
            let after = try #require(try await callPID())
            #expect(after != before, "\(rebuild): the call right after it ran the old build (pid \(before))")
            try await waitFor("\(rebuild): the old process stopped") { !processExists(before) }
        }
    }

    @Test func aReloadLetsACallInFlightOnTheOldProcessFinish() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.testHelperApp])
        let appex = apps.appendingPathComponent("TestHelper.app/PlugIns/TestHelperExt.appex")
        try ExampleBundles.setMode("slow-status 600", appex: appex)
        let daemon = try await DaemonProcess(apps: apps, arguments: ["--keep-warm"]).waitUntilServing()
        try await waitFor("warm") { try await daemon.process(Self.helper)?.pid != nil }
        let call = Task {
            try await daemon.call("extension.call", .object(["appex": .string(appex.path), "method": .string("status"),
                                                             "deadlineMs": .double(5000)]))
        }
        try await daemon.waitForCallInFlight("status")
        let executable = appex.appendingPathComponent("TestHelperExt")
        let rebuilt = appex.appendingPathComponent(".new")
        try FileManager.default.copyItem(at: executable, to: rebuilt)
        #expect(rename(rebuilt.path, executable.path) == 0)
        let answer = try await call.value
        #expect(answer["succeeded"] == .bool(true), "\(answer)")
    }

    /// A warm call is answered from the extension's I/O thread; one that misses its deadline
    /// still waits for the late answer, and the report says how long it really took.
    @Test func aWarmCallThatMissesItsDeadlineReportsItsLateAnswer() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.testHelperApp])
        let appex = apps.appendingPathComponent("TestHelper.app/PlugIns/TestHelperExt.appex")
        try ExampleBundles.setMode("slow-status 300", appex: appex)
        let daemon = try await DaemonProcess(apps: apps, arguments: ["--keep-warm"]).waitUntilServing()
        try await waitFor("warm") { try await daemon.process(Self.helper)?.pid != nil }
        let client = try DaemonClient(connectingTo: daemon.socketPath)
        for _ in 0..<2 {
            let answer = try await client.call("extension.call", JSONValue.object(["appex": .string(appex.path), "method": .string("status")]))
            #expect(answer["succeeded"] == .bool(false))
            #expect(answer["report"]?["launchedProcess"] == .bool(false), "the warm process took it")
            #expect(answer["report"]?["error"]?["kind"] == .string("deadlineExceeded"), "\(answer)")
            guard case .string(let late)? = answer["report"]?["error"]?["late"] else {
                Issue.record("no late note: \(answer)")
                continue
            }
            #expect(late.contains("status completed"), "\(late)")
        }
    }
}
