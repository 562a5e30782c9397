import Foundation
import Testing
import WalletDaemon
import WalletTestSupport
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// `serve --busy-poll DURATION`: the I/O reactor polls instead of sleeping for that long after it
/// read an answer; without the option it sleeps at once. (That it sleeps once the window has
/// passed: `BusyPollWindowTests`, on a test clock.)
@Suite(.serialized, .timeLimit(.minutes(2)))
struct BusyPollTests {
    @Test("a busy-polling reactor does not sleep between back-to-back calls; without it, it sleeps for each answer",
          arguments: [true, false])
    func pollsOnlyWhileCallsCome(busyPolls: Bool) async throws {
        let apps = try appsDirectory(with: [ExampleBundles.testHelperApp])
        let appex = apps.appendingPathComponent("TestHelper.app/PlugIns/TestHelperExt.appex").path
        // The widest window (the bound is accepted): a debug client's back-to-back calls come within it.
        let daemon = try await DaemonProcess(apps: apps, arguments: busyPolls ? ["--busy-poll", "100ms"] : []).waitUntilServing()
        let client = try DaemonClient(connectingTo: daemon.socketPath)
        let call = JSONValue.object(["appex": .string(appex), "method": .string("status")])
        _ = try await client.call("extension.call", call)
        let reactor = try #require(Self.thread(named: "wh-io", of: daemon.pid), "no I/O reactor thread in the daemon")
        let before = try #require(Self.voluntarySwitches(reactor, of: daemon.pid))
        for _ in 0..<200 { _ = try await client.call("extension.call", call) }
        let sleeps = try #require(Self.voluntarySwitches(reactor, of: daemon.pid)) - before
        if busyPolls {
            #expect(sleeps < 40, "the reactor slept \(sleeps) times during 200 back-to-back calls")
        } else {
            // Most answers find it asleep; one that arrives while the loop is still awake (the
            // client's next request, the extension's answer racing the loop's last turn) does
            // not: 147 of 200 were seen on a clean clone. Well apart from the busy-poller's < 40.
            #expect(sleeps >= 100, "the reactor slept only \(sleeps) times during 200 calls: it should sleep for nearly each answer")
        }
        // That the loop sleeps once the window has passed on its clock (an idle daemon costs
        // nothing) is the loop's decision: BusyPollWindowTests advances a test clock past it.
    }

    @Test("--busy-poll takes a duration from over zero to 100 ms, and says so")
    func busyPollIsBounded() async throws {
        for value in ["0ms", "101ms", "fast"] {
            let result = try WalletHostCommand.run(["serve", "--busy-poll", value, "--state",
                                                    TemporaryDirectory.uniqueURL(prefix: "wallet-host-state").path])
            #expect(result.status == 2, "--busy-poll \(value): \(result.status) \(result.standardError)")
            #expect(result.standardError.contains("--busy-poll"), "--busy-poll \(value): \(result.standardError)")
        }
    }

    static func thread(named name: String, of pid: Int32) -> String? {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.first { task in
            (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) == name
        }
    }

    /// How often the thread went to sleep of its own accord.
    static func voluntarySwitches(_ thread: String, of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("voluntary_ctxt_switches:") })
        else { return nil }
        return Int(line.split(separator: "\t").last ?? "")
    }
}
