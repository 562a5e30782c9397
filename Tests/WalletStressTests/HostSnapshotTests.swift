import Foundation
import Testing
@testable import WalletStress
#if canImport(Glibc)
import Glibc
#endif

@Suite("The stress tool's host snapshot names what a run left open")
struct HostSnapshotTests {
    @Test func aPipeOpenedBetweenTwoSnapshotsIsNamedWithItsNumbers() throws {
        let before = HostSnapshot.now()
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        let after = HostSnapshot.now()
        // Other tests may open and close descriptors meanwhile: only the pipe's two are sure.
        let named = after.newDescriptors(since: before)
        for fd in ends {
            #expect(named.contains { $0.hasPrefix("fd \(fd): pipe:[") }, "\(named)")
        }
        // The snapshot's own listing descriptor is not named: it is closed when the links are read.
        let listing = named.filter { $0.contains("/proc/") && $0.hasSuffix("/fd") }
        #expect(listing.isEmpty, "\(listing)")
    }

    @Test func theReportSaysWhatWasLeftOpenAndTheJSONListsIt() throws {
        var result = StressFixtures.result()
        result.hostAfter = HostSnapshot(fileDescriptors: 21, threads: 6, rssBytes: 28 << 20, zombies: 0,
                                        descriptorTargets: [3: "/dev/null", 9: "/tmp/state/logs/com.example.log"])
        result.hostBefore = HostSnapshot(fileDescriptors: 20, threads: 6, rssBytes: 28 << 20, zombies: 0,
                                         descriptorTargets: [3: "/dev/null"])
        let report = StressReport(result)
        #expect(report.host.fileDescriptorDelta == 1)
        #expect(report.host.newDescriptors == ["fd 9: /tmp/state/logs/com.example.log"])
        #expect(report.renderText().contains("host: left open: fd 9: /tmp/state/logs/com.example.log"))
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any]
        let host = try #require(json?["host"] as? [String: Any])
        #expect(host["newDescriptors"] as? [String] == ["fd 9: /tmp/state/logs/com.example.log"])
        // The snapshots themselves keep their four numbers only.
        #expect((host["after"] as? [String: Any])?.keys.sorted() == ["fileDescriptors", "rssBytes", "threads", "zombies"])
    }
}
