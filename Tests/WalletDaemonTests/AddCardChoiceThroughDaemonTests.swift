import Foundation
import Testing
import WalletDaemon
import WalletTestSupport

/// `add-card --interactive` through the daemon (issue 35): the bank is chosen here from the
/// daemon's discovery, then the daemon's flow runs with it.
@Suite("add-card --interactive through the daemon", .serialized, .timeLimit(.minutes(2)))
struct AddCardChoiceThroughDaemonTests {
    @Test func theBankIsChosenFromTheDaemonsList() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.sampleIssuerApp, ExampleBundles.testHelperApp])
        let daemon = try await DaemonProcess(apps: apps, arguments: ["--deadline", "status=5s"]).waitUntilServing()
        let common = ["--apps", apps.path, "--state", daemon.state.path]
        for app in ["SampleIssuer", "TestHelper"] {
            #expect(try WalletHostCommand.run(["app", "open", app] + common).status == 0)
        }
        let before = try DaemonClient.decode(DaemonAPI.Status.self, from: try await daemon.call("host.status")).requestsServed
        let process = Process()
        process.executableURL = BuildProducts.walletHost
        process.arguments = ["add-card", "--interactive", "--select", "all"] + common
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data("2\n".utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("Wallet lists 2 banks:"), "\(text)")
        #expect(text.contains("User picks TestHelper."), "\(text)")
        #expect(text.hasSuffix("Added 1 card(s) to iPhone.\n"), "\(text)")
        let after = try DaemonClient.decode(DaemonAPI.Status.self, from: try await daemon.call("host.status")).requestsServed
        #expect(after > before + 2, "wallet.discover and wallet.addCard went through the daemon")
    }
}
