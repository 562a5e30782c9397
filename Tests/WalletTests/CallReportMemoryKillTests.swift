import Testing
import Wallet
import WalletHostRuntime

/// A memory kill's report does not call the last footprint sample a peak (issue 33: "killed at
/// 55 MB" beside "peak footprint 2.9 MB").
@Suite("call report of a memory kill")
struct CallReportMemoryKillTests {
    static func outcome(_ result: Result<any Encodable & Sendable, ExtensionCallError>) -> CallOutcome<any Encodable & Sendable> {
        CallOutcome(method: "passEntries", result: result, launchMilliseconds: 30, launchedProcess: true, callMilliseconds: 40,
                    totalMilliseconds: 70, peakFootprintBytes: 3_040_870, pid: 42)
    }

    @Test("killed for memory: the footprint is the last sample, never a peak")
    func memoryKill() {
        let error = ExtensionCallError(.memoryLimitExceeded, code: -32011,
                                       message: "the extension was killed at its 55 MB memory limit")
        let text = CallReport.human(Self.outcome(.failure(error)), executable: "Ext", deadline: nil, lateNote: nil)
        #expect(!text.contains("peak footprint"), "\(text)")
        #expect(text.contains("footprint last sampled at 2.9 MB"), "\(text)")
    }

    @Test("any other outcome keeps its peak footprint")
    func otherOutcomes() {
        let text = CallReport.human(Self.outcome(.success(["ok": true])), executable: "Ext", deadline: nil, lateNote: nil)
        #expect(text.contains("peak footprint 2.9 MB"), "\(text)")
    }
}
