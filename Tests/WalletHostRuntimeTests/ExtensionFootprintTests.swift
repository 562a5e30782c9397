import Foundation
import Testing
import WalletTestSupport
@testable import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

/// Without a control group, a periodic sample counts every process of the extension only once
/// per full-count age and estimates in between (the extension's own footprint now, the rest as
/// last counted); an estimate over the limit is counted again. A real process tree: a Python
/// parent and a child that holds 24 MB until it is killed.
@Suite("Extension footprint: periodic samples without a control group", .timeLimit(.minutes(1)),
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
struct ExtensionFootprintTests {
    /// Prints the child's pid once the child has written its 24 MB, then reaps it when it dies.
    static let parentScript = """
        import os, sys, time
        read_end, write_end = os.pipe()
        child = os.fork()
        if child == 0:
            os.close(read_end)
            block = bytearray(24 << 20)
            for i in range(0, len(block), 4096):
                block[i] = 1
            os.write(write_end, b"x")
            time.sleep(60)
            os._exit(0)
        os.close(write_end)
        os.read(read_end, 1)
        print(child, flush=True)
        os.waitpid(child, 0)
        time.sleep(60)
        """

    @Test func anEstimateKeepsTheLastCountUntilItIsTooOldOrOverTheLimit() throws {
        let parent = Process()
        parent.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        parent.arguments = ["-c", Self.parentScript]
        let output = Pipe()
        parent.standardOutput = output
        try parent.run()
        defer {
            // SIGKILL: a SIGTERM (Process.terminate) left the Python parent running under the test runner.
            kill(parent.processIdentifier, SIGKILL)
            parent.waitUntilExit()
        }
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        let child = try #require(pid_t(line.trimmingCharacters(in: .whitespacesAndNewlines)), "no child pid: \(line)")
        defer { kill(child, SIGKILL) }
        let clock = TestClock()
        let footprint = ExtensionFootprint(pid: parent.processIdentifier, root: parent.processIdentifier, sandboxed: false,
                                           controlGroup: nil, clock: clock)
        let unlimited = Int.max

        // The first sample counts both processes: there is no count yet to build on.
        let counted = try #require(footprint.periodicSample(fullCountAge: .seconds(60), limitBytes: unlimited))
        #expect(!counted.estimated)
        #expect(counted.bytes > 24 << 20, "the child's 24 MB were not counted: \(counted.bytes)")

        kill(child, SIGKILL)
        try waitUntil("the child is reaped") { kill(child, 0) != 0 }

        // Within the age: the parent's own footprint now, the child as last counted.
        let estimated = try #require(footprint.periodicSample(fullCountAge: .seconds(60), limitBytes: unlimited))
        #expect(estimated.estimated)
        #expect(estimated.bytes > 24 << 20, "the estimate dropped the last count's child: \(estimated.bytes)")

        // Over the limit, the estimate is not what the host acts on: everything is counted again.
        let confirmed = try #require(footprint.periodicSample(fullCountAge: .seconds(60), limitBytes: 24 << 20))
        #expect(!confirmed.estimated)
        #expect(confirmed.bytes < 24 << 20, "the dead child was still counted: \(confirmed.bytes)")

        // Within the age on the host's clock, however long the test took: an estimate again.
        #expect(try #require(footprint.periodicSample(fullCountAge: .milliseconds(10), limitBytes: unlimited)).estimated)

        // Past the age, a full count again.
        clock.advance(by: .milliseconds(11))
        let recounted = try #require(footprint.periodicSample(fullCountAge: .milliseconds(10), limitBytes: unlimited))
        #expect(!recounted.estimated)
        #expect(recounted.bytes < 24 << 20)
    }

    private func waitUntil(_ what: String, _ condition: () -> Bool) throws {
        let giveUp = ContinuousClock.now + .seconds(5)
        while !condition() {
            guard ContinuousClock.now < giveUp else { throw TestFailure("\(what) within 5 s") }
            usleep(5_000)
        }
    }
}

private struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
