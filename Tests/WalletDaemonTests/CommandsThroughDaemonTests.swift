import Foundation
import Testing
import WalletDaemon
import WalletTestSupport
import WalletWire

/// The CLI verbs with a daemon serving their state directory: they use it, and print what they
/// print in process, with the same exit status.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct CommandsThroughDaemonTests {
    func served(_ daemon: DaemonProcess) async throws -> Int {
        try DaemonClient.decode(DaemonAPI.Status.self, from: try await daemon.call("host.status")).requestsServed
    }

    @Test func passesAndDevicePrintTheSameThroughTheDaemonAsInProcess() async throws {
        let daemon = try await DaemonProcess().waitUntilServing()
        let state = ["--state", daemon.state.path]
        let before = try await served(daemon)
        let added = try WalletHostCommand.run(["passes", "add", "FPANID-9", "--suffix", "9999", "--issuer", "com.example.x"] + state)
        #expect(added.status == 0, "\(added.standardError)")
        #expect(added.standardOutput == "added FPANID-9 to iPhone\n")
        #expect(try await served(daemon) > before, "passes add went through the daemon")
        for arguments in [["passes"], ["passes", "list", "--json"], ["device"], ["device", "--json"], ["passes", "remove", "nothing"]] {
            let through = try WalletHostCommand.run(arguments + state)
            let local = try WalletHostCommand.run(arguments + state + ["--no-daemon"])
            #expect(through.standardOutput == local.standardOutput, "\(arguments)")
            #expect(through.status == local.status, "\(arguments)")
        }
        let unpaired = try WalletHostCommand.run(["device", "--watch", "unpaired", "--json"] + state)
        #expect(try unpaired.json()["watchPaired"] as? Bool == false)
        let stillUnpaired = try WalletHostCommand.run(["device", "--json", "--no-daemon"] + state)
        #expect(try stillUnpaired.json()["watchPaired"] as? Bool == false)
    }

    @Test func callRunsOnTheDaemonsWarmProcessAndReportsAsInProcess() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.testHelperApp])
        let appex = apps.appendingPathComponent("TestHelper.app/PlugIns/TestHelperExt.appex").path
        let daemon = try await DaemonProcess(apps: apps).waitUntilServing()
        let state = ["--state", daemon.state.path]
        let first = try WalletHostCommand.run(["call", appex, "status", "--json"] + state)
        let second = try WalletHostCommand.run(["call", appex, "status", "--json"] + state)
        let local = try WalletHostCommand.run(["call", appex, "status", "--json", "--no-daemon"] + state)
        for run in [first, second, local] { #expect(run.status == 0, "\(run.standardError)") }
        let (a, b, c) = (try first.json(), try second.json(), try local.json())
        #expect(a["launchedProcess"] as? Bool == true)
        #expect(b["launchedProcess"] as? Bool == false, "the second call is warm")
        #expect(b["pid"] as? Int == a["pid"] as? Int)
        #expect(c["launchedProcess"] as? Bool == true)
        #expect(c["pid"] as? Int != a["pid"] as? Int, "--no-daemon runs its own process")
        #expect(Set(a.keys) == Set(c.keys))
        #expect(a["result"] as? NSDictionary == c["result"] as? NSDictionary)

        let human = try WalletHostCommand.run(["call", appex, "status"] + state)
        #expect(human.standardOutput.hasPrefix("status -> TestHelperExt[\(a["pid"] as? Int ?? 0)]\n"), "\(human.standardOutput)")
        #expect(human.standardOutput.contains("warm · call "))

        let failedThrough = try WalletHostCommand.run(["call", appex, "noSuchMethod"] + state)
        let failedLocal = try WalletHostCommand.run(["call", appex, "noSuchMethod", "--no-daemon"] + state)
        #expect(failedThrough.status == 1)
        #expect(failedLocal.status == 1)
        #expect(failedThrough.standardOutput.components(separatedBy: "\n")[1] == failedLocal.standardOutput.components(separatedBy: "\n")[1])

        let missing = try WalletHostCommand.run(["call", "/nonexistent/X.appex", "status"] + state)
        let missingLocal = try WalletHostCommand.run(["call", "/nonexistent/X.appex", "status", "--no-daemon"] + state)
        #expect(missing.status == 1)
        #expect(missing.standardError == missingLocal.standardError)

        let nowhere = try WalletHostCommand.run(["call", appex, "status", "--connect", "/nonexistent/wallet-host.sock"] + state)
        #expect(nowhere.status == 1)
        #expect(nowhere.standardError.contains("--connect: cannot connect to /nonexistent/wallet-host.sock"))
    }

    @Test func addCardThroughTheDaemonAnswersTheForwardedPromptsFromItsScript() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.sampleIssuerApp])
        let daemon = try await DaemonProcess(apps: apps, arguments: ["--keep-warm"]).waitUntilServing()
        let common = ["--apps", apps.path, "--state", daemon.state.path]
        let opened = try WalletHostCommand.run(["app", "open", "SampleIssuer"] + common)
        #expect(opened.status == 0, "\(opened.standardError)")
        #expect(opened.standardOutput.hasPrefix("opened SampleIssuer ("))
        let script = try TemporaryDirectory().url.appendingPathComponent("agent.json")
        try Data("""
            {"answers": [{"action": "Log In", "values": {"username": "jappleseed", "password": "nope"}},
                         {"action": "Log In", "values": {"username": "jappleseed", "password": "wallet-demo"}}],
             "biometric": ["match"], "select": ["FPANID-SAMPLE-VISA-4242"]}
            """.utf8).write(to: script)
        let run = try WalletHostCommand.run(["add-card", "--user-agent", script.path] + common)
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        #expect(run.standardOutput.contains("✔ authorization"))
        #expect(run.standardOutput.hasSuffix("Added 1 card(s) to iPhone.\n"))
        let nonUI = try #require(try await daemon.process("com.example.sampleissuer.WNonUIExt"))
        #expect(nonUI.calls >= 3, "status, passEntries and the request ran on the daemon's warm process")
        #expect(nonUI.launches == 1, "kept warm from the start and reused: it saw the app's login without a relaunch")
        let ui = try #require(try await daemon.process("com.example.sampleissuer.WUIExt"))
        #expect(ui.pid == nil, "the flow's UI extension is stopped with the flow")

        let json = try WalletHostCommand.run(["add-card", "--user-agent", script.path, "--json", "--select", "FPANID-SAMPLE-MC-5454"] + common)
        #expect(json.status == 0, "\(json.standardError)")
        #expect(try json.json()["authorization"] as? String == "authorized")
    }

    @Test func addCardInteractiveThroughTheDaemonAsksAtThisCommandsTerminal() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.sampleIssuerApp])
        // The flow's discovery launches the issuer cold (no wallet.discover warms it first any more):
        // a deadline a loaded machine meets, as the other flows' tests give.
        let daemon = try await DaemonProcess(apps: apps, arguments: ["--deadline", "status=5s"]).waitUntilServing()
        let common = ["--apps", apps.path, "--state", daemon.state.path]
        #expect(try WalletHostCommand.run(["app", "open", "SampleIssuer"] + common).status == 0)
        let before = try await served(daemon)
        // Input that is not a terminal is read line by line: user name, password, then action 1 (Log In).
        let process = Process()
        process.executableURL = BuildProducts.walletHost
        process.arguments = ["add-card", "--interactive", "--select", "FPANID-SAMPLE-VISA-4242"] + common
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data("jappleseed\nwallet-demo\n1\n".utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("Sign in to Sample Issuer"), "the daemon's forwarded prompt was asked here")
        #expect(text.contains("✔ authorization"))
        #expect(text.hasSuffix("Added 1 card(s) to iPhone.\n"))
        #expect(try await served(daemon) > before + 1, "host.status and wallet.addCard went through the daemon")
    }

    @Test func conformWithTheDaemonsStateRunsInTheDaemonAndPrintsTheSame() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.testHelperApp])
        let appex = apps.appendingPathComponent("TestHelper.app/PlugIns/TestHelperExt.appex").path
        let daemon = try await DaemonProcess(apps: apps).waitUntilServing()
        let junit = try TemporaryDirectory().url.appendingPathComponent("conform.xml")
        let before = try await served(daemon)
        let through = try WalletHostCommand.run(["conform", appex, "--state", daemon.state.path, "--junit", junit.path])
        #expect(try await served(daemon) > before, "conform went through the daemon")
        let local = try WalletHostCommand.run(["conform", appex, "--state", daemon.state.path, "--no-daemon"])
        #expect(through.status == local.status)
        #expect(through.status == 0, "\(through.standardOutput)")
        let lastLines = { (run: WalletHostRun) in run.standardOutput.split(separator: "\n").suffix(2).map(String.init) }
        #expect(lastLines(through).first == lastLines(local).last, "the same summary line")
        #expect(lastLines(through).last == "JUnit XML: \(junit.path)")
        #expect(try String(contentsOf: junit, encoding: .utf8).contains("<testsuite"))
        let json = try WalletHostCommand.run(["conform", appex, "--state", daemon.state.path, "--json"])
        #expect(json.status == 0)
        _ = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8))
    }

    /// `call APPEX generateAddPaymentPassRequest` through the daemon gets a chain from the
    /// daemon's device and reports the payload's verification, as in process.
    @Test func aProvisioningCallThroughTheDaemonIsVerifiedAsInProcess() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.testHelperApp])
        let appex = apps.appendingPathComponent("TestHelper.app/PlugIns/TestHelperExt.appex").path
        let daemon = try await DaemonProcess(apps: apps).waitUntilServing()
        let params = #"{"identifier":"HELPER-0001","configuration":{"encryptionScheme":"ECC_V2","cardholderName":"Test Helper","#
            + #""primaryAccountSuffix":"0001","style":"payment","cardDetails":[],"productIdentifiers":[],"#
            + #""requiresFelicaSecureElement":false}}"#
        let arguments = ["call", appex, "generateAddPaymentPassRequest", "--params", params, "--state", daemon.state.path]
        let through = try WalletHostCommand.run(arguments + ["--json"])
        let local = try WalletHostCommand.run(arguments + ["--json", "--no-daemon"])
        for run in [through, local] {
            #expect(run.status == 0, "\(run.standardError)")
            let verification = try #require(try run.json()["verification"] as? [String: Any], "\(run.standardOutput)")
            #expect(verification["status"] as? String == "verified", "\(verification)")
        }
        let human = try WalletHostCommand.run(arguments)
        #expect(human.standardOutput.contains("\npayload: "), "\(human.standardOutput)")
        #expect(!human.standardOutput.contains("4111111111080001"), "the card number is never printed")
    }

    @Test func psListsTheDaemonsExtensionsAndSaysSoWhenNoDaemonServes() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.testHelperApp])
        let daemon = try await DaemonProcess(apps: apps, arguments: ["--keep-warm"]).waitUntilServing()
        try await waitFor("warm") { try await daemon.process("com.example.testhelper.TestHelperExt")?.pid != nil }
        let table = try WalletHostCommand.run(["ps", "--state", daemon.state.path])
        #expect(table.status == 0)
        let lines = table.standardOutput.split(separator: "\n")
        #expect(lines.first?.hasPrefix("BUNDLE ID") == true)
        #expect(lines.dropFirst().contains { $0.hasPrefix("com.example.testhelper.TestHelperExt") && $0.contains(" warm ") })
        let json = try WalletHostCommand.run(["ps", "--json", "--state", daemon.state.path]).json()
        let processes = try #require(json["processes"] as? [[String: Any]])
        #expect(processes.first?["state"] as? String == "warm")
        #expect(processes.first?["pid"] as? Int != nil)

        let none = try WalletHostCommand.run(["ps", "--state", TemporaryDirectory.uniqueURL(prefix: "wallet-host-state").path])
        #expect(none.status == 1)
        #expect(none.standardError.contains("no wallet-host daemon answers on"))
    }
}
