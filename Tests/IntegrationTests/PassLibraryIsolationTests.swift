import Foundation
import Testing
import Wallet
import WalletHostRuntime
import WalletTestSupport
import WalletWire

/// Two issuers on one device, each extension answered with its own issuer's passes only
/// (issue 12, item 10). Each issuer's status tells what its extension saw: a card of its own
/// already on a device is not offered again, while another bank's card with the same account
/// identifier must not hide one of its cards.
@Suite("Pass library per issuer", .serialized, .enabled(if: Python3.isAvailable, "python3 is not on PATH"),
       .timeLimit(.minutes(3)))
struct PassLibraryIsolationTests {
    static let sampleAccounts = ["FPANID-SAMPLE-AMEX-1005", "FPANID-SAMPLE-MC-5454", "FPANID-SAMPLE-VISA-4242"]
    static let pythonAccounts = ["PY-ACCT-MC-3388", "PY-ACCT-VISA-7421"]
    static let otherBank = "com.example.otherbank"

    @Test("with two issuers' passes on the device, each extension sees only its own")
    func eachExtensionSeesOnlyItsOwnIssuersPasses() async throws {
        let loaded = InstalledApps(directory: ExampleBundles.directory)
        let sample = try #require(loaded.app(named: "SampleIssuer"))
        let python = try #require(loaded.app(named: "PythonIssuer"))
        let installed = InstalledApps(apps: [sample, python])
        let device = SimulatedDevice(state: StateDirectory(url: TemporaryDirectory.uniqueURL(prefix: "wallet-host-isolation")))
        for app in installed.apps { _ = try AppLauncher(device: device).open(app) }

        // iPhone: the Python issuer's own cards, and another bank's cards that share the sample's identifiers.
        // Watch: the sample issuer's own cards, and another bank's cards that share the Python issuer's identifiers.
        for account in Self.pythonAccounts {
            try device.addPass(PassRecord(primaryAccountIdentifier: account, primaryAccountNumberSuffix: String(account.suffix(4)),
                                          device: .iphone, issuer: python.bundleIdentifier))
            try device.addPass(PassRecord(primaryAccountIdentifier: account, primaryAccountNumberSuffix: String(account.suffix(4)),
                                          device: .watch, issuer: Self.otherBank))
        }
        for account in Self.sampleAccounts {
            try device.addPass(PassRecord(primaryAccountIdentifier: account, primaryAccountNumberSuffix: String(account.suffix(4)),
                                          device: .watch, issuer: sample.bundleIdentifier))
            try device.addPass(PassRecord(primaryAccountIdentifier: account, primaryAccountNumberSuffix: String(account.suffix(4)),
                                          device: .iphone, issuer: Self.otherBank))
        }

        var configuration = HostConfiguration()
        // Two issuers' cold status on two shared cores can take longer than Wallet's 100 ms.
        configuration.deadlineOverrides[WireMethod.status] = .seconds(5)
        let flow = AddCardFlow(installed: installed, device: device, configuration: configuration, userAgent: nil)

        let iPhone = Dictionary(uniqueKeysWithValues: await flow.discover(.iphone).map { ($0.bundleIdentifier, $0) })
        let sampleOnIPhone = try #require(iPhone[sample.bundleIdentifier]?.status, "\(iPhone)")
        let pythonOnIPhone = try #require(iPhone[python.bundleIdentifier]?.status, "\(iPhone)")
        #expect(sampleOnIPhone.passEntriesAvailable, "the other bank's cards hid the sample issuer's own")
        #expect(!pythonOnIPhone.passEntriesAvailable, "the Python issuer did not see its own cards on the iPhone")

        let watch = Dictionary(uniqueKeysWithValues: await flow.discover(.watch).map { ($0.bundleIdentifier, $0) })
        let sampleOnWatch = try #require(watch[sample.bundleIdentifier]?.status, "\(watch)")
        let pythonOnWatch = try #require(watch[python.bundleIdentifier]?.status, "\(watch)")
        #expect(!sampleOnWatch.remotePassEntriesAvailable, "the sample issuer did not see its own cards on the watch")
        #expect(pythonOnWatch.remotePassEntriesAvailable, "the other bank's cards hid the Python issuer's own")
    }
}
