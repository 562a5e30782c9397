import Foundation
import Wallet
import WalletHostRuntime
import WalletWire

/// `wallet-host demo`: the main job on the bundled sample issuer, from a fresh device.
///
/// Opens the sample issuer app (it logs in and writes its cards into its App Group), runs
/// Wallet's discovery, authorizes through the UI extension, adds every card to the iPhone,
/// shows that status then offers nothing more for the iPhone but still offers the paired
/// watch, and adds those cards too.
struct DemoCommand {
    let appsURL: URL?
    let stateURL: URL?

    static let spec = CommandSpec(
        "demo",
        summary: """
            The sample issuer end to end on a fresh simulated device: open the app, discovery, \
            authorization by a scripted user, every card to the iPhone, then to the paired watch.
            """,
        options: [CommonOptions.apps.withHelp("""
                      Use the bundles in DIR (default: build the examples and assemble them into \
                      .build/bundles with scripts/make-bundles).
                      """),
                  CommonOptions.state.withHelp("""
                      The simulated device's state directory (default: a fresh one under the temporary \
                      directory, removed when the demo ends; give one to keep its event log).
                      """)])

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, for: Self.spec)
        appsURL = parsed.value("apps").map { URL(fileURLWithPath: $0) }
        stateURL = parsed.value("state").map { URL(fileURLWithPath: $0) }
    }

    /// The demo user: logs in with the sample issuer's credentials, once per flow.
    static let script = """
        {"answers": [{"action": "Log In", "values": {"username": "jappleseed", "password": "wallet-demo"}},
                     {"action": "Log In", "values": {"username": "jappleseed", "password": "wallet-demo"}}],
         "biometric": []}
        """

    func run() async throws -> Int32 {
        let apps = try appsURL ?? Self.assembleBundles()
        let state = StateDirectory(url: stateURL ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("wallet-host-demo-\(getpid())"))
        if stateURL == nil { try? FileManager.default.removeItem(at: state.url) }
        // A throwaway device goes with the demo: its images unmounted, its directory removed
        // (every demo run used to leave a /tmp/wallet-host-demo-PID behind).
        defer {
            if stateURL == nil {
                ContainerVolume.release(under: state.url.path)
                try? FileManager.default.removeItem(at: state.url)
            }
        }
        let device = SimulatedDevice(state: state)
        let installed = InstalledApps(directory: apps)
        guard let app = installed.app(named: "SampleIssuer") else {
            throw CommandFailure("SampleIssuer.app is missing or invalid in \(apps.path):\n"
                                 + installed.findings.map { "  \($0)" }.joined(separator: "\n"))
        }
        print("Simulated device state: \(state.url.path)")
        print("Installed issuer apps: \(installed.apps.map(\.name).joined(separator: ", "))\n")

        print("== 1. The user opens \(app.name) and logs in")
        let opened = try AppLauncher(device: device).open(app)
        for line in opened.run.stdoutLines { print("  \(line)") }

        let userAgent = try ScriptedUserAgent(data: Data(Self.script.utf8))
        var configuration = HostConfiguration()
        configuration.events = try state.openEventLog()
        let flow = AddCardFlow(installed: installed, device: device, configuration: configuration, userAgent: userAgent,
                               transcript: { print($0) })

        print("\n== 2. Add cards to the iPhone")
        let iphone = await flow.run(AddCardOptions(device: .iphone, issuer: app.bundleIdentifier))
        Self.printUserAgentTranscript(userAgent, from: 0)
        print(iphone.succeeded ? "Added \(iphone.cards.count) card(s) to the iPhone." : "FAILED: \(iphone.failure ?? "")")
        let seenByIPhoneFlow = userAgent.transcript.count

        print("\n== 3. Wallet asks again: the iPhone has every card, the paired watch has none yet")
        let after = await flow.discover(.iphone)
        if let status = after.first(where: { $0.bundleIdentifier == app.bundleIdentifier })?.status {
            print("  status: passEntriesAvailable \(status.passEntriesAvailable), "
                  + "remotePassEntriesAvailable \(status.remotePassEntriesAvailable)")
        }

        print("\n== 4. Add cards to the Apple Watch")
        let watch = await flow.run(AddCardOptions(device: .watch, issuer: app.bundleIdentifier))
        Self.printUserAgentTranscript(userAgent, from: seenByIPhoneFlow)
        print(watch.succeeded ? "Added \(watch.cards.count) card(s) to the Apple Watch." : "FAILED: \(watch.failure ?? "")")

        print("\n== Pass library")
        for pass in try device.passes() {
            print("  \(pass.deviceName): \(pass.primaryAccountIdentifier) ••\(pass.primaryAccountNumberSuffix)")
        }
        if stateURL == nil {
            print("\nThe demo's device is removed now; run with --state DIR to keep it and its event log.")
        } else {
            print("\nEvent log: \(state.logsURL.appendingPathComponent("events.jsonl").path)")
        }
        return iphone.succeeded && watch.succeeded ? 0 : 1
    }

    /// What the scripted user saw and answered (passwords masked).
    static func printUserAgentTranscript(_ userAgent: ScriptedUserAgent, from start: Int) {
        let lines = userAgent.transcript.dropFirst(start)
        guard !lines.isEmpty else { return }
        print("The user (scripted):")
        for line in lines { print("  \(line)") }
    }

    /// Builds the example products and assembles their bundles with scripts/make-bundles,
    /// found next to the checkout this wallet-host was built from.
    static func assembleBundles() throws -> URL {
        var directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("scripts/make-bundles").path) { break }
            directory = directory.deletingLastPathComponent()
        }
        let script = directory.appendingPathComponent("scripts/make-bundles")
        guard FileManager.default.fileExists(atPath: script.path) else {
            throw CommandFailure("cannot find scripts/make-bundles above the wallet-host executable; pass --apps DIR")
        }
        let output = directory.appendingPathComponent(".build/bundles")
        print("Building the sample issuer and assembling its bundles (swift build's progress follows)...")
        let process = Process()
        process.executableURL = script
        process.arguments = ["--out", output.path]
        process.currentDirectoryURL = directory
        // The build's progress goes to stderr, where a person watching sees it go; the demo's
        // transcript on stdout stays the demo's.
        process.standardOutput = FileHandle.standardError
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CommandFailure("scripts/make-bundles failed (status \(process.terminationStatus))")
        }
        return output
    }
}
