import Foundation
import Wallet
import WalletHostRuntime
@testable import WalletStress
import WalletWire

/// Stress results made by hand, for tests of the summaries that need no process.
enum StressFixtures {
    static let descriptor = ExtensionDescriptor(
        bundlePath: "/apps/TestHelper.app/PlugIns/TestHelperExt.appex",
        executablePath: "/apps/TestHelper.app/PlugIns/TestHelperExt.appex/TestHelperExt",
        bundleIdentifier: "com.example.testhelper.TestHelperExt", containingAppBundleIdentifier: "com.example.testhelper",
        principalClass: "TestHelperExt.TestHelperHandler", point: ExtensionPointRegistry.wallet.point("com.apple.PassKit.issuer-provisioning")!,
        appGroups: [:])

    /// `count` status calls on one warm process whose footprint grows `growth` bytes per call,
    /// one cold call every 10, one killed call, one missed deadline.
    static func result(count: Int = 200, growth: Int = 256 * 1024, plan: StressPlan = StressPlan()) -> StressResult {
        var records: [StressCallRecord] = []
        var warmCalls = 0
        for index in 0..<count {
            let cold = (index + 1) % 10 == 0
            var record = StressCallRecord(index: index, method: WireMethod.status, cold: cold,
                                          startedAtMilliseconds: Double(index), latencyMilliseconds: cold ? 9 : 0.1 + Double(index % 5) * 0.01,
                                          deadlineMilliseconds: 100, pid: cold ? Int32(2000 + index) : 1000)
            if !cold {
                warmCalls += 1
                record.footprintAfterBytes = 1_000_000 + warmCalls * growth
            }
            record.peakFootprintBytes = record.footprintAfterBytes
            if index == 42 {
                record.errorKind = "extensionTerminated"
                record.message = "TestHelperExt[1000] was killed by SIGKILL during status"
                record.evidence = ["process was killed by SIGKILL"]
                record.fault = .kill
                record.footprintAfterBytes = nil
            }
            if index == 43 {
                record.errorKind = "deadlineExceeded"
                record.message = "status did not complete within its 100 ms deadline"
                record.latencyMilliseconds = 101
                record.fault = .stop
                record.footprintAfterBytes = nil
            }
            records.append(record)
        }
        let snapshot = HostSnapshot(fileDescriptors: 20, threads: 6, rssBytes: 28 << 20, zombies: 0)
        return StressResult(descriptor: descriptor, plan: plan, memoryLimitBytes: 55 << 20, records: records,
                            elapsed: .seconds(1), relaunches: 1, coldLaunches: count / 10,
                            faultsInjected: [.kill: 1, .stop: 1], faultsMissed: 0, memoryKills: 0, hangs: 0,
                            lateCompletions: 1, doubleCompletions: 0, protocolErrors: 0, hostBefore: snapshot, hostAfter: snapshot)
    }
}
