import Foundation
import Testing
import WalletHostRuntime
import WalletHostTestSupport
import WalletTestSupport
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// The CPU is shared out per extension (issue 31, break 8): one issuer's extension that keeps
/// busy processes after answering no longer starves another issuer's first status. With a `cpu`
/// control group each extension has equal shares and, between calls, a small quota; without one
/// its processes are niced.
@Suite("CPU: shared out per extension", .serialized, .timeLimit(.minutes(2)),
       .enabled(if: KernelNamespaces.available, "the kernel refuses the namespaces the sandbox needs"),
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
struct CPUShareTests {
    /// Whether this host gets `cpu` groups (root, with the v1 cpu hierarchy mounted and writable).
    static let cpuGroupsAvailable = geteuid() == 0 && ControlGroups.cpuDirectory != nil

    /// Answers `initialize` and `status`; its first status answer leaves `@LOOPS@` busy loops behind
    /// (each a shell carrying the token, started before the answer), which run until it is killed.
    static let busyAfterAnswerScript = #"""
        #!/usr/bin/python3
        import json, os
        requests = os.fdopen(3, "rb")
        responses = os.fdopen(4, "wb")
        started = False
        for line in requests:
            message = json.loads(line)
            if "id" not in message or message.get("method") is None:
                if message.get("method") == "exit": break
                continue
            head = '{"id":' + json.dumps(message["id"]) + ',"jsonrpc":"2.0","result":'
            if message["method"] == "initialize":
                result = '{"methods":["status"],"protocolVersion":1,"runtime":{"name":"busy","version":"1"}}'
            else:
                result = '{"passEntriesAvailable":true,"remotePassEntriesAvailable":false,"requiresAuthentication":false}'
            if message["method"] == "status" and not started:
                started = True
                for _ in range(@LOOPS@):
                    if os.fork() == 0:
                        os.execv("/bin/sh", ["sh", "-c", "while :; do :; done", "busy.@TOKEN@"])
            responses.write((head + result + '}\n').encode())
            responses.flush()
        """#

    /// The busy extension's runner, answered once: its loops run from then on.
    static func startBusy(_ hostile: HostileExtension, controlGroups: ControlGroupMode, loops: Int) async throws -> ExtensionRunner {
        try hostile.rewriteScript { $0.replacingOccurrences(of: "@LOOPS@", with: "\(loops)") }
        let (busy, _) = hostile.runner(sandbox: .auto) {
            $0.controlGroups = controlGroups
            $0.deadlineOverrides[WireMethod.status] = .seconds(10)
            // The CPU is under test, not the memory: without control groups every process's
            // footprint counts, and a child that has not exec'd yet shares the script's 4 MB.
            $0.memoryLimitOverride = 512 << 20
        }
        let first = await busy.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        _ = try first.result.get()
        try await waitFor("the busy loops running", timeout: .seconds(20)) { hostile.processesWithToken.count >= loops }
        return busy
    }

    @Test("a busy extension that answered gets the idle quota and equal shares; another issuer's cold status meets 100 ms",
          .enabled(if: cpuGroupsAvailable, "needs a cpu control group hierarchy (a root host)"))
    func busyExtensionLeavesOthersTheCPU() async throws {
        let hostile = try HostileExtension(script: Self.busyAfterAnswerScript)
        defer { hostile.cleanUp() }
        let busy = try await Self.startBusy(hostile, controlGroups: .auto, loops: 100)
        let pid = try #require(busy.pid)
        let group = try #require(ExtensionLimitsTests.controlGroup(of: pid, controller: "cpu"))
        let directory = try #require(ControlGroups.cpuDirectory)
        let name = try #require(group.split(separator: "/").last.map(String.init))
        #expect(group.hasSuffix("/\(getpid())/\(name)"), "\(group) is not one of this host's groups (\(directory))")
        let path = directory + "/" + name
        func read(_ file: String) -> String {
            ((try? String(contentsOfFile: path + "/" + file, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        }
        // The deterministic part: equal shares, and the idle quota once it answered.
        #expect(read("cpu.shares") == "1024")
        try await waitFor("the idle quota on the busy extension's group", timeout: .seconds(3)) { read("cpu.cfs_quota_us") == "5000" }
        #expect(read("cpu.cfs_period_us") == "100000")

        // Another issuer's first status, cold, through the same host, within Wallet's 100 ms;
        // one retry for a noisy machine (the other helpers' builds share its two cores).
        var outcomes: [String] = []
        for _ in 0..<2 {
            let appex = try ExampleBundles.testHelper(mode: "normal")
            let (other, _, _) = try ExampleBundles.runner(appex: appex) { $0.controlGroups = .auto }
            let outcome = await other.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
            await other.stop()
            let said = switch outcome.result {
            case .success: "answered"
            case .failure(let error): error.message
            }
            outcomes.append("\(outcome.totalMilliseconds) ms: \(said)")
            if (try? outcome.result.get()) != nil { break }
        }
        #expect(outcomes.last?.contains("answered") == true, "\(outcomes)")

        // A call lifts the quota (its answer is not throttled), and it comes back after.
        let again = await busy.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        #expect((try? again.result.get()) != nil)
        try await waitFor("the idle quota again", timeout: .seconds(3)) { read("cpu.cfs_quota_us") == "5000" }
        await busy.stop()
    }

    @Test("without control groups an extension's processes run niced")
    func nicedWithoutControlGroups() async throws {
        let hostile = try HostileExtension(script: Self.busyAfterAnswerScript)
        defer { hostile.cleanUp() }
        // A few loops: unthrottled, they hold the machine's cores while the test runs.
        let busy = try await Self.startBusy(hostile, controlGroups: .off, loops: 3)
        let loops = hostile.processesWithToken
        #expect(!loops.isEmpty)
        for loop in loops.prefix(5) {
            // /proc/PID/stat: the 19th field is the nice value (after the command in parentheses).
            let stat = (try? String(contentsOfFile: "/proc/\(loop)/stat", encoding: .utf8)) ?? ""
            let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
            #expect(fields.count > 16 && fields[16] == "\(ProcessLimits.niceWithoutCPUGroup)", "\(stat)")
        }
        await busy.stop()
    }
}
