import Foundation
import Testing
import WalletTestSupport

/// `call … passEntries` through the daemon shows card art as `call` in process does (issue 35):
/// its size and the file written in the device's state directory, not base64.
@Suite("call passEntries through the daemon", .serialized, .timeLimit(.minutes(2)))
struct CallArtThroughDaemonTests {
    @Test func cardArtIsItsSizeAndAFile() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.testHelperApp])
        let appex = apps.appendingPathComponent("TestHelper.app/PlugIns/TestHelperExt.appex").path
        let daemon = try await DaemonProcess(apps: apps).waitUntilServing()
        let run = try WalletHostCommand.run(["call", appex, "passEntries", "--state", daemon.state.path])
        #expect(run.status == 0, "\(run.standardError)")
        let file = daemon.state.appendingPathComponent("art/helper-card-0001.png")
        #expect(run.standardOutput.contains("PNG 1536 x 969, 279 bytes, written to \(file.path)"), "\(run.standardOutput)")
        #expect(FileManager.default.fileExists(atPath: file.path))
        #expect(!run.standardOutput.contains("iVBOR"))
    }
}
