import Foundation
import Testing
import WalletHostCore
import WalletSimulator
import WalletWire

/// The example bundles, assembled once per test process by scripts/make-bundles from the
/// executables `swift test` just built (they sit next to the test bundle).
enum ExampleBundles {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The build products directory: where the test runner itself lives.
    static let productsDirectory: URL = {
        let runner = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = runner.deletingLastPathComponent()
        // Inside `X.xctest/` on some layouts: step out to the products directory.
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "Contents"
            || directory.lastPathComponent == "MacOS" {
            directory = directory.deletingLastPathComponent()
        }
        return directory
    }()

    /// Where the bundles were assembled (a fresh temporary directory per test process).
    static let directory: URL = {
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("wallet-host-bundles-\(getpid())")
        try? FileManager.default.removeItem(at: output)
        let process = Process()
        process.executableURL = repositoryRoot.appendingPathComponent("scripts/make-bundles")
        process.arguments = ["--out", output.path, "--products", productsDirectory.path]
        process.standardOutput = FileHandle.nullDevice
        try? process.run()
        process.waitUntilExit()
        precondition(process.terminationStatus == 0, "scripts/make-bundles failed (status \(process.terminationStatus))")
        return output
    }()

    static var sampleIssuerApp: URL { directory.appendingPathComponent("SampleIssuer.app") }
    static var testHelperApp: URL { directory.appendingPathComponent("TestHelper.app") }
    static var testHelperAppex: URL { testHelperApp.appendingPathComponent("PlugIns/TestHelperExt.appex") }

    /// A private copy of the test helper app whose extension runs in `mode` (`TestHelperMode` file).
    static func testHelper(mode: String) throws -> URL {
        let copy = FileManager.default.temporaryDirectory
            .appendingPathComponent("wallet-host-helper-\(UUID().uuidString)")
            .appendingPathComponent("TestHelper.app")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: testHelperApp, to: copy)
        let appex = copy.appendingPathComponent("PlugIns/TestHelperExt.appex")
        try setMode(mode, appex: appex)
        return appex
    }

    /// Changes the helper's mode; the helper reads it on every request.
    static func setMode(_ mode: String, appex: URL) throws {
        try Data((mode + "\n").utf8).write(to: appex.appendingPathComponent("TestHelperMode"))
    }

    /// A runner for an `.appex`, with a fresh state directory and an event collector.
    static func runner(appex: URL, configure: (inout HostConfiguration) -> Void = { _ in })
        throws -> (ExtensionRunner, EventCollector, StateDirectory) {
        let (bundle, findings) = BundleLoader().loadExtension(at: appex)
        guard let bundle else {
            throw BundleLoadFailure(description: findings.map(\.description).joined(separator: "\n"))
        }
        let state = StateDirectory(url: FileManager.default.temporaryDirectory
            .appendingPathComponent("wallet-host-state-\(UUID().uuidString)"))
        let events = EventCollector()
        var configuration = HostConfiguration()
        configuration.events = events
        configuration.services = DeviceServices(device: SimulatedDevice(state: state))
        configuration.idleTimeout = nil
        configuration.hangGrace = .milliseconds(500)
        configuration.stopGrace = .milliseconds(300)
        // Tests run many suites at once on two cores: a cold launch can take longer than
        // Wallet's 100 ms. Tests about the status deadline set it back explicitly.
        configuration.deadlineOverrides[WireMethod.status] = .seconds(5)
        configure(&configuration)
        let descriptor = ExtensionDescriptor(bundle: bundle,
                                             appGroups: try state.appGroupContainers(bundle.entitlements.appGroups))
        return (ExtensionRunner(descriptor: descriptor, configuration: configuration), events, state)
    }
}

struct BundleLoadFailure: Error, CustomStringConvertible {
    var description: String
}
