import Foundation
import Synchronization
import Testing
import WalletHostRuntime
import WalletHostTestSupport
import WalletTestSupport
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// Every supervised process's I/O goes through one reactor thread (`SupervisorReactor`): many
/// warm extensions cost one thread, and one that floods its output or exits does not hold up the
/// others' calls.
@Suite(.serialized)
struct SharedReactorTests {
    @Test("twenty warm extensions share one I/O thread, and all twenty answer at once")
    func oneThreadForMany() async throws {
        let runners = try (0..<20).map { _ in try ExampleBundles.runner(appex: ExampleBundles.testHelperAppex).0 }
        defer { Task { for runner in runners { await runner.stop() } } }
        let launched = await withTaskGroup(of: Bool.self) { group in
            for runner in runners {
                group.addTask { if case .success = await runner.prewarm() { true } else { false } }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(launched == 20)
        let names = Self.threadNames()
        #expect(names.filter { $0 == "wh-io" }.count == 1, "threads: \(names.sorted())")
        #expect(names.filter { $0.hasPrefix("wh-io.") }.isEmpty, "one I/O thread per process: \(names.sorted())")
        let answered = await withTaskGroup(of: Bool.self) { group in
            for runner in runners {
                group.addTask {
                    let outcome = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
                    if case .success = outcome.result { return true }
                    return false
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(answered == 20)
    }

    /// A flood of the shortest lines (`yes`: "y" and a newline) costs the most per byte: each
    /// line is framed, and logged or decoded. On fd 4 each is a protocol violation.
    @Test("an extension flooding stdout, stderr or fd 4 with short lines does not starve another's calls",
          arguments: ["", ">&2", ">&4"])
    func floodDoesNotStarve(redirection: String) async throws {
        let helper = ExampleBundles.testHelperAppex.appendingPathComponent("TestHelperExt").path
        // The flood starts once the helper (exec'd in its place) has answered the handshake.
        let flooder = try HostileExtension(script: """
            #!/bin/bash
            (sleep 0.3; exec -a yes-@TOKEN@ yes \(redirection)) &
            exec \(helper)

            """)
        defer { flooder.cleanUp() }
        let (flooding, _) = flooder.runner(sandbox: .off, principalClass: "TestHelperExt.TestHelperHandler")
        if case .failure(let error) = await flooding.prewarm() {
            Issue.record("the flooding extension did not start: \(error.message)")
            return
        }
        defer { Task { await flooding.stop() } }
        // Wallet's own deadline: a reactor held up by the flood's turns misses it.
        guard let runner = try await Self.warmTestHelper(statusDeadline: .milliseconds(100)) else { return }
        defer { Task { await runner.stop() } }
        let floodSeen = ContinuousClock.now + .seconds(5)
        while flooder.processesWithToken.isEmpty, ContinuousClock.now < floodSeen { try await Task.sleep(for: .milliseconds(10)) }
        // On fd 4 the flood is a stream of protocol violations: the host may have ended the
        // flooder already (beyond repair), which is the point.
        if redirection != ">&4" { #expect(!flooder.processesWithToken.isEmpty, "the flood never started") }
        var calls = 0
        var failures: [String] = []
        let ends = ContinuousClock.now + .milliseconds(1500)
        while ContinuousClock.now < ends {
            let outcome = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
            calls += 1
            if case .failure(let error) = outcome.result { failures.append(error.message) }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(calls) calls failed: \(failures.prefix(3))")
        // Beside the flood a call takes a few milliseconds here (the flood keeps a core busy);
        // with the flood's turns unbounded in time, 50 ms and more.
        #expect(calls >= 75, "only \(calls) calls in 1.5 s beside the flood")
    }

    /// A Python extension whose status answer carries 15 MB of small objects and an escaped
    /// string: outside the plain shape, so `JSONDecoder` reads it (a quarter of a second). That
    /// happens on a thread of its own (`wh-line.PID`), not on the reactor's, so another
    /// extension's calls are not held up.
    @Test("an extension's multi-megabyte answers are decoded on a thread of their own, and hold up no other call",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
    func largeLinesDecodeApart() async throws {
        let large = try HostileExtension(script: #"""
            #!/usr/bin/python3
            import json, os
            requests = os.fdopen(3, "rb")
            responses = os.fdopen(4, "wb")
            # 15 MB written 100 KB at a time (the extension's own 55 MB would not hold it whole);
            # the escaped string puts the line outside the plain shape.
            chunk = ('{"a":1},' * 12_500).encode()
            for line in requests:
                message = json.loads(line)
                if "id" not in message or message.get("method") is None:
                    if message.get("method") == "exit": break
                    continue
                ident = json.dumps(message["id"])
                method = message["method"]
                head = '{"id":' + ident + ',"jsonrpc":"2.0","result":'
                if method == "status":
                    responses.write((head + '{"passEntriesAvailable":true,"remotePassEntriesAvailable":false,'
                                     '"requiresAuthentication":false,"padding":').encode())
                    responses.write(b'["\\u00e9",')
                    for _ in range(150): responses.write(chunk)
                    responses.write(b'{"a":1}]}}\n')
                    responses.flush()
                    continue
                if method == "initialize":
                    result = '{"methods":["status"],"protocolVersion":1,"runtime":{"name":"large-lines","version":"1"}}'
                else:
                    result = "null"
                responses.write((head + result + '}\n').encode())
                responses.flush()

            """#)
        defer { large.cleanUp() }
        let (largeRunner, _) = large.runner(sandbox: .off) { $0.deadlineOverrides[WireMethod.status] = .seconds(20) }
        if case .failure(let error) = await largeRunner.prewarm() {
            Issue.record("the extension with large lines did not start: \(error.message)")
            return
        }
        defer { Task { await largeRunner.stop() } }
        // A generous deadline: a failure is a real one; the calls' own times tell the rest.
        guard let runner = try await Self.warmTestHelper(statusDeadline: .seconds(1)) else { return }
        defer { Task { await runner.stop() } }
        let largePID = try #require(largeRunner.pid)
        var sawDecodingThread = false
        // Large answers one after another, while the other extension is called back to back.
        let largeDone = Mutex(false)
        let largeCalls = Task {
            var failures: [String] = []
            for _ in 0..<3 {
                let outcome = await largeRunner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
                if case .failure(let error) = outcome.result { failures.append(error.message) }
            }
            largeDone.withLock { $0 = true }
            return failures
        }
        var calls = 0
        var failures: [String] = []
        // The reactor reads an answer before it looks at deadlines: one held up by a decode is
        // late, not failed. So the calls' own times tell.
        var slowCalls: [Double] = []
        while !largeDone.withLock({ $0 }) {
            let started = ContinuousClock.now
            let outcome = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
            let milliseconds = (ContinuousClock.now - started).milliseconds
            calls += 1
            if case .failure(let error) = outcome.result { failures.append(error.message) }
            if milliseconds > 200 { slowCalls.append(milliseconds) }
            if !sawDecodingThread, calls % 8 == 0 { sawDecodingThread = Self.threadNames().contains("wh-line.\(largePID)") }
        }
        let largeFailures = await largeCalls.value
        #expect(largeFailures.isEmpty, "the large answers failed: \(largeFailures.prefix(2).map { $0.prefix(200) })")
        #expect(failures.isEmpty, "\(failures.count) of \(calls) calls failed beside the large lines: \(failures.prefix(3))")
        #expect(sawDecodingThread, "no wh-line.\(largePID) thread was seen decoding a large answer")
        // Decoded on the reactor's thread, each large answer held one call up for 300 ms here;
        // one slow call is left to the machine's moods.
        #expect(slowCalls.count <= 1, "\(slowCalls.count) of \(calls) calls took over 200 ms: \(slowCalls.prefix(5)) ms")
        #expect(calls >= 20)
    }

    @Test("a killed extension is reaped while the others answer, and a new one on its descriptor numbers works")
    func exitAndReuse() async throws {
        let made = try (0..<5).map { _ in try ExampleBundles.runner(appex: ExampleBundles.testHelperAppex) }
        let runners = made.map(\.0)
        defer { Task { for runner in runners { await runner.stop() } } }
        for runner in runners {
            guard case .success = await runner.prewarm() else {
                Issue.record("a test helper did not start")
                return
            }
        }
        let killed = runners[0]
        let pid = try #require(killed.pid)
        kill(pid, SIGKILL)
        // The exit is seen through the reactor (the pidfd), and torn down off its thread; the
        // exit event comes once the runner's process has left it.
        await made[0].1.waitForEvent("the killed process's exit") { $0.kind == .exit && $0.pid == pid }
        #expect(killed.pid == nil, "the killed process \(pid) was not reaped")
        for runner in runners.dropFirst() {
            let outcome = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
            if case .failure(let error) = outcome.result { Issue.record("another extension's call failed: \(error.message)") }
        }
        // The next launch likely gets the closed descriptors' numbers: the reactor must have let go of them.
        let relaunched = await killed.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        if case .failure(let error) = relaunched.result { Issue.record("the relaunched extension's call failed: \(error.message)") }
        #expect(relaunched.pid != nil && relaunched.pid != pid)
    }

    /// The names of this process's threads (`/proc/self/task/*/comm`).
    /// The test helper, warm, with `status`'s deadline set; nil (and an issue recorded) when it did not start.
    static func warmTestHelper(statusDeadline: Duration) async throws -> ExtensionRunner? {
        let (runner, _, _) = try ExampleBundles.runner(appex: ExampleBundles.testHelperAppex) {
            $0.deadlineOverrides[WireMethod.status] = statusDeadline
        }
        guard case .success = await runner.prewarm() else {
            Issue.record("the test helper did not start")
            await runner.stop()
            return nil
        }
        return runner
    }

    static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
}
