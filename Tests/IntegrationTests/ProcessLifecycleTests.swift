import Foundation
import Testing
import WalletHostRuntime
import WalletHostTestSupport
import WalletTestSupport
import WalletWire

@Suite("Process lifecycle and misbehaving extensions", .serialized, .timeLimit(.minutes(3)))
struct ProcessLifecycleTests {
    @Test("every call gets a fresh handler instance while globals persist")
    func freshInstancePerCall() async throws {
        let (runner, _, _) = try ExampleBundles.runner(appex: try ExampleBundles.testHelper(mode: "normal"))
        var globals: [Int] = []
        for _ in 0..<4 {
            let outcome = await runner.call(WireMethod.passEntries, params: NoParams(), resultType: PassEntriesResult.self)
            let entry = try #require(try outcome.result.get().entries.first)
            let details = Dictionary(entry.addRequestConfiguration.cardDetails.map { ($0.label, $0.value) }) { first, _ in first }
            #expect(details["instanceCalls"] == "1")
            globals.append(Int(details["globalCalls"] ?? "") ?? -1)
        }
        #expect(globals == globals.sorted() && Set(globals).count == 4, "the global counter grows: \(globals)")
        #expect(runner.launchCount == 1)
        await runner.stop()
    }

    @Test("a crash mid-call fails the call with the signal and the next call relaunches", arguments: [
        ("crash-signal", "SIGSEGV"), ("crash-fatal", ""),
    ])
    func crashMidCall(mode: String, signalName: String) async throws {
        let appex = try ExampleBundles.testHelper(mode: mode)
        let (runner, _, _) = try ExampleBundles.runner(appex: appex)
        let outcome = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self) 
        let error = try #require(outcome.result.failureValue, "\(mode) must fail the call")
        #expect(error.kind == .extensionTerminated)
        #expect(error.message.contains("during status"))
        if !signalName.isEmpty { #expect(error.message.contains(signalName)) }
        try ExampleBundles.setMode("normal", appex: appex)
        let next = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        #expect((try? next.result.get()) != nil)
        await runner.stop()
    }

    @Test("a garbage line is logged and answered; the call still succeeds")
    func garbageLineSurvives() async throws {
        let (runner, events, _) = try ExampleBundles.runner(appex: try ExampleBundles.testHelper(mode: "garbage-line"))
        let outcome = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        #expect((try? outcome.result.get()) != nil)
        let problem = try #require(events.events.first { $0.kind == .protocolError })
        #expect(problem.message.contains("not valid JSON") == true)
        await runner.stop()
    }

    @Test("an oversized line fails the call in flight at once, naming its size; the host and the process survive")
    func oversizedLineFailsCall() async throws {
        let appex = try ExampleBundles.testHelper(mode: "oversized-line")
        let (runner, events, _) = try ExampleBundles.runner(appex: appex) {
            $0.deadlineOverrides["status"] = .seconds(10)
        }
        let outcome = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        let error = try #require(outcome.result.failureValue, "a 17 MiB line must fail the call in flight")
        #expect(error.kind == .protocolViolation)
        #expect(error.message.contains("sent a line of 17825792 bytes, over the 16777216-byte limit"))
        #expect(events.events.contains { $0.kind == .protocolError })
        try ExampleBundles.setMode("normal", appex: appex)
        let next = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        #expect((try? next.result.get()) != nil)
        await runner.stop()
    }

    @Test("a result of the wrong shape is a protocol violation naming the key")
    func wrongShape() async throws {
        let (runner, _, _) = try ExampleBundles.runner(appex: try ExampleBundles.testHelper(mode: "wrong-shape"))
        let outcome = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        let error = try #require(outcome.result.failureValue, "a wrong-shaped status must fail")
        #expect(error.kind == .protocolViolation)
        #expect(error.message.contains("passEntriesAvailable"))
        await runner.stop()
    }

    @Test("stdout noise is captured as log lines and never breaks the protocol")
    func stdoutNoise() async throws {
        let (runner, events, _) = try ExampleBundles.runner(appex: try ExampleBundles.testHelper(mode: "stdout-noise"))
        let outcome = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        #expect((try? outcome.result.get()) != nil)
        await runner.stop()
        #expect(events.outputLines.contains { $0.hasPrefix("stdout: ") })
        #expect(events.outputLines.contains { $0.hasPrefix("stderr: ") })
    }

    @Test("a grandchild holding the pipe does not make a call hang past its deadline")
    func grandchildHoldingPipe() async throws {
        let (runner, _, _) = try ExampleBundles.runner(appex: try ExampleBundles.testHelper(mode: "fork-grandchild")) {
            $0.deadlineOverrides["status"] = .seconds(10)
        }
        let outcome = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        let error = try #require(outcome.result.failureValue, "the extension exits without answering")
        #expect(error.kind == .extensionTerminated)
        #expect(outcome.totalMilliseconds < 5_000, "reaping must not wait for pipe EOF")
        await runner.stop()
    }

    @Test("an extension that ignores exit and SIGTERM is killed with SIGKILL")
    func ignoresExit() async throws {
        let (runner, events, _) = try ExampleBundles.runner(appex: try ExampleBundles.testHelper(mode: "ignore-exit"))
        _ = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        let exit = try #require(await runner.stop())
        #expect(exit.status == .signaled(9))
        #expect(events.events.contains { $0.kind == .kill && $0.message.contains("SIGKILL") })
    }

    @Test("an executable that cannot be started comes back as errno and path")
    func execFailure() async throws {
        let appex = try ExampleBundles.testHelper(mode: "normal")
        let (runner, _, _) = try ExampleBundles.runner(appex: appex)
        // Replace the executable with a file the kernel cannot execute.
        let executable = appex.appendingPathComponent("TestHelperExt")
        try FileManager.default.removeItem(at: executable)
        try Data("not a program".utf8).write(to: executable)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: executable.path)
        let outcome = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        let error = try #require(outcome.result.failureValue, "a non-program must not launch")
        #expect(error.kind == .launchFailed)
        #expect(error.message.contains(executable.path))
        #expect(error.message.contains("execve"))
    }

    /// On a test clock: the 30 s idle timeout passes when the test moves the clock, not in real time.
    @Test("a warm process with no call for the idle time is stopped; a call meanwhile restarts the idle time; the next call relaunches")
    func idleStop() async throws {
        let clock = TestClock()
        let (runner, events, _) = try ExampleBundles.runner(appex: try ExampleBundles.testHelper(mode: "normal")) {
            $0.idleTimeout = .seconds(30)
            $0.clock = clock
        }
        for _ in 0..<3 {
            _ = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        }
        let pid = try #require(runner.pid)
        #expect(await clock.waitForSleepers(1), "no idle timer armed")
        #expect(clock.sleeperCount == 1, "one idle timer for the runner, not one per call")
        clock.advance(by: .seconds(29))
        // A call at 29 s: the idle time now ends at 59 s. The timer, due at 30 s, looks again then.
        _ = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        clock.advance(by: .seconds(2))
        // The timer due at 30 s left the clock's sleepers as it fired; it sleeps again, now until 59 s.
        #expect(await clock.waitForSleepers(1), "the idle timer was not armed again for 59 s")
        #expect(runner.pid == pid, "stopped although a call came 2 s before")
        #expect(!events.events.contains { $0.kind == .exit })
        let exitsFrom = events.count
        clock.advance(by: .seconds(28))
        let exit = await events.firstEvent(from: exitsFrom, within: .seconds(10)) { $0.kind == .exit }
        #expect(exit?.pid == pid)
        #expect(events.events.contains { $0.payload == .stop(HostEvent.Stop(reason: .idle)) })
        #expect(runner.pid == nil)
        let next = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        #expect(next.launchedProcess)
        await runner.stop()
    }

    @Test("no zombie and no leaked descriptor after 200 spawns")
    func noLeaksAfterManySpawns() async throws {
        let appex = try ExampleBundles.testHelper(mode: "normal")
        let descriptorsBefore = try openDescriptorCount()
        for _ in 0..<200 {
            let (runner, _, _) = try ExampleBundles.runner(appex: appex) { $0.stopGrace = .milliseconds(500) }
            let outcome = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
            #expect((try? outcome.result.get()) != nil)
            await runner.stop()
        }
        // The last children are reaped and their descriptors closed just after stop returns: give
        // that up to 5 s, then look. A zombie or a leak per spawn never goes, and fails below.
        let giveUp = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < giveUp, try !zombieChildren().isEmpty || openDescriptorCount() - descriptorsBefore >= 20 {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try zombieChildren().isEmpty)
        let descriptorsAfter = try openDescriptorCount()
        // Other suites run alongside and hold a few descriptors of their own; a leak per spawn
        // would show as hundreds.
        #expect(descriptorsAfter - descriptorsBefore < 20, "descriptors before \(descriptorsBefore), after \(descriptorsAfter)")
        // A root host keeps a sandbox root template per plan (each runner here has its own state
        // directory, so its own plan), one mount namespace descriptor each, 64 at most.
        #expect(try descriptorTargets().filter { $0.hasPrefix("mnt:") }.count <= 64)
    }

    /// Open descriptors, but for the sandbox templates' mount namespaces (counted on their own).
    private func openDescriptorCount() throws -> Int {
        try descriptorTargets().filter { !$0.hasPrefix("mnt:") }.count
    }

    /// What each descriptor of this process refers to (`pipe:[N]`, `mnt:[N]`, a path, ...).
    private func descriptorTargets() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").map { fd in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")) ?? ""
        }
    }

    /// Children of this process in state Z.
    private func zombieChildren() throws -> [String] {
        let me = getpid()
        return try FileManager.default.contentsOfDirectory(atPath: "/proc").filter { $0.allSatisfy(\.isNumber) }.filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && fields[0] == "Z" && Int32(fields[1]) == me
        }
    }
}
