import Foundation
import Testing
import WalletDaemon
import WalletTestSupport

/// `call`, `add-card` and `conform` are written once over a session that runs in this process
/// or on the daemon: the same command prints the same report whichever route ran it (numbers
/// aside: pids, timings, footprints), with a real daemon and the real example bundles.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct SessionRouteParityTests {
    /// The text with every number as `N`, and a warm call's timing as a launch's.
    /// The text with every number as `N`, and what depends on timing alone left out: whether a
    /// quick call's footprint was sampled, a second's unit, a chart's axis ticks, the progress
    /// lines on stderr.
    static func normalized(_ text: String) -> String {
        text.replacingOccurrences(of: #"[0-9]+(\.[0-9]+)?"#, with: "N", options: .regularExpression)
            // A duration past a second is written in seconds.
            .replacingOccurrences(of: #"N s(?![a-z])"#, with: "N ms", options: .regularExpression)
            .replacingOccurrences(of: " · peak footprint N MB", with: "")
            .replacingOccurrences(of: #""peakFootprintBytes":null"#, with: #""peakFootprintBytes":N"#)
            // Whether a cold process's stray stdout or stderr line was read before it ended is
            // timing, not the route: a clean clone's run had one on one route only.
            .replacingOccurrences(of: #"; N lines? on stdout and stderr went to the log, never read as protocol"#, with: "",
                                  options: .regularExpression)
            .split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains(#"class="tick""#) && !$0.hasPrefix("wallet-host: ") }
            .joined(separator: "\n")
    }

    /// Stops the daemon as `wallet-host stop` does, so that it unmounts its App Group images
    /// (a daemon killed at the end of the test would leave them mounted).
    static func stop(_ daemon: DaemonProcess) async throws {
        _ = try await daemon.call("host.shutdown")
        _ = try await daemon.waitForExit()
    }

    func served(_ daemon: DaemonProcess) async throws -> Int {
        try DaemonClient.decode(DaemonAPI.Status.self, from: try await daemon.call("host.status")).requestsServed
    }

    /// Each case on a fresh daemon, so that both routes launch the extension (a warm call has
    /// no launch time and samples no footprint); status gets a deadline a loaded machine meets.
    @Test func callPrintsTheSameReportThroughTheDaemonAndInProcess() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.testHelperApp])
        let appex = apps.appendingPathComponent("TestHelper.app/PlugIns/TestHelperExt.appex").path
        let modeFile = URL(fileURLWithPath: appex).appendingPathComponent("TestHelperMode")
        defer { try? FileManager.default.removeItem(at: modeFile) }
        let cases: [(mode: String?, arguments: [String])] = [
            (nil, ["status", "--json"]), (nil, ["status"]), (nil, ["passEntries"]), (nil, ["passEntries", "--json"]),
            (nil, ["noSuchMethod"]), (nil, ["noSuchMethod", "--json"]),
            // A failure with what else the host saw: the signal that ended the process, the lines that were no protocol.
            ("crash-signal", ["status"]), ("crash-signal", ["status", "--json"]), ("garbage-instead", ["status", "--json"]),
            // A missed deadline, and how the call ended after it (the late note).
            ("slow-status 600", ["status", "--deadline", "status=300ms"]),
            ("slow-status 600", ["status", "--json", "--deadline", "status=300ms"]),
        ]
        for (mode, arguments) in cases {
            if let mode { try Data(mode.utf8).write(to: modeFile) } else { try? FileManager.default.removeItem(at: modeFile) }
            let daemon = try await DaemonProcess(apps: apps).waitUntilServing()
            let before = try await served(daemon)
            // No answer ever comes in garbage-instead: a deadline not to wait long for.
            var state = ["--state", daemon.state.path]
            if !arguments.contains("--deadline") { state += ["--deadline", mode == "garbage-instead" ? "status=1s" : "status=5s"] }
            let through = try WalletHostCommand.run(["call", appex] + arguments + state)
            #expect(try await served(daemon) > before, "\(arguments) went through the daemon")
            let local = try WalletHostCommand.run(["call", appex] + arguments + state + ["--no-daemon"])
            #expect(through.status == local.status, "\(arguments)")
            #expect(Self.normalized(through.standardOutput) == Self.normalized(local.standardOutput),
                    "\(mode ?? "") \(arguments):\n\(through.standardOutput)\n---\n\(local.standardOutput)")
            #expect(Self.normalized(through.standardError) == Self.normalized(local.standardError), "\(arguments)")
            if mode?.hasPrefix("slow-status") == true {
                #expect(through.standardOutput.contains(" after the ask"), "the late note: \(through.standardOutput)")
            }
            try await Self.stop(daemon)
        }
    }

    /// `call … authorize` through the daemon: the UI extension's prompts come to this command,
    /// answered by its script or, when nobody can answer, with the same note on how to (it ran
    /// in process whenever a user was to be asked).
    @Test func callAuthorizeAnswersTheUIExtensionThroughTheDaemonAsInProcess() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.sampleIssuerApp])
        let appex = apps.appendingPathComponent("SampleIssuer.app/PlugIns/WUIExt.appex").path
        let daemon = try await DaemonProcess(apps: apps).waitUntilServing()
        let state = ["--state", daemon.state.path]
        #expect(try WalletHostCommand.run(["app", "open", "SampleIssuer", "--apps", apps.path] + state).status == 0)
        let script = try TemporaryDirectory().url.appendingPathComponent("agent.json")
        try Data(#"{"answers": [{"action": "Log In", "values": {"username": "jappleseed", "password": "wallet-demo"}}]}"#.utf8)
            .write(to: script)
        for arguments in [["--user-agent", script.path], ["--user-agent", script.path, "--json"], [], ["--json"]] {
            let before = try await served(daemon)
            let through = try WalletHostCommand.run(["call", appex, "authorize"] + arguments + state)
            #expect(try await served(daemon) > before, "\(arguments) went through the daemon")
            let local = try WalletHostCommand.run(["call", appex, "authorize"] + arguments + state + ["--no-daemon"])
            #expect(through.status == local.status, "\(arguments)")
            #expect(Self.normalized(through.standardOutput) == Self.normalized(local.standardOutput),
                    "\(arguments):\n\(through.standardOutput)\n---\n\(local.standardOutput)")
            #expect(through.standardError == local.standardError, "\(arguments)")
            let answered = arguments.contains("--user-agent")
            #expect(through.standardOutput.contains(answered ? "authorized" : "canceled"), "\(through.standardOutput)")
            #expect(through.standardError.contains("nobody can answer") == !answered, "\(through.standardError)")
        }
        try await Self.stop(daemon)
    }

    @Test func addCardPrintsTheSameFlowThroughTheDaemonAndInProcess() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.sampleIssuerApp])
        let daemon = try await DaemonProcess(apps: apps, arguments: ["--deadline", "status=5s"]).waitUntilServing()
        let localState = TemporaryDirectory.uniqueURL(prefix: "wallet-host-state")
        let script = try TemporaryDirectory().url.appendingPathComponent("agent.json")
        try Data("""
            {"issuer": "com.example.sampleissuer",
             "answers": [{"action": "Log In", "values": {"username": "jappleseed", "password": "wallet-demo"}}],
             "biometric": ["match"], "select": ["FPANID-SAMPLE-VISA-4242"]}
            """.utf8).write(to: script)
        let states = [["--state", daemon.state.path], ["--state", localState.path, "--no-daemon"]]
        // The daemon's deadline for status, given to the run in this process.
        let routes = [states[0], states[1] + ["--deadline", "status=5s"]]
        for route in states {
            #expect(try WalletHostCommand.run(["app", "open", "SampleIssuer", "--apps", apps.path] + route).status == 0)
        }
        for arguments in [["--user-agent", script.path], ["--user-agent", script.path, "--json", "--select", "FPANID-SAMPLE-MC-5454"]] {
            let runs = try routes.map { try WalletHostCommand.run(["add-card", "--apps", apps.path] + arguments + $0) }
            #expect(runs[0].status == 0, "\(runs[0].standardOutput)\(runs[0].standardError)")
            #expect(runs[0].status == runs[1].status)
            #expect(Self.normalized(runs[0].standardOutput) == Self.normalized(runs[1].standardOutput),
                    "\(arguments):\n\(runs[0].standardOutput)\n---\n\(runs[1].standardOutput)")
            #expect(runs[0].standardError == runs[1].standardError)
        }
        #expect(try await daemon.process("com.example.sampleissuer.WNonUIExt")?.calls ?? 0 >= 3, "the flows went through the daemon")

        // --html too goes through the daemon now: it sends the offered entries (their art) for the page.
        let pages = try TemporaryDirectory().url
        let before = try await served(daemon)
        var written: [String] = []
        for (index, route) in routes.enumerated() {
            let page = pages.appendingPathComponent("add-card-\(index).html")
            let run = try WalletHostCommand.run(["add-card", "--apps", apps.path, "--user-agent", script.path, "--select", "FPANID-SAMPLE-AMEX-1005",
                                                 "--html", page.path] + route)
            #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
            written.append(try String(contentsOf: page, encoding: .utf8))
        }
        #expect(try await served(daemon) > before + 1, "host.status and wallet.addCard for the page")
        #expect(written[0].contains("data:image/png;base64,"), "the offered cards' art")
        #expect(Self.normalized(written[0]) == Self.normalized(written[1]))
        try await Self.stop(daemon)
    }

    /// Runs wallet-host with `input` on standard input (a pipe, read line by line as a terminal's).
    static func run(_ arguments: [String], input: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = BuildProducts.walletHost
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let text = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// `--interactive` without `--issuer` or `--select`: the bank and the cards are asked at this
    /// terminal as the flow reaches them, through the daemon as in process (it ran in process
    /// when the cards were to be chosen, and asked the bank before the discovery was printed).
    @Test func addCardInteractiveAsksTheSameQuestionsThroughTheDaemonAndInProcess() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.sampleIssuerApp, ExampleBundles.testHelperApp])
        let daemon = try await DaemonProcess(apps: apps, arguments: ["--deadline", "status=5s"]).waitUntilServing()
        let localState = TemporaryDirectory.uniqueURL(prefix: "wallet-host-state")
        let states = [["--state", daemon.state.path], ["--state", localState.path, "--no-daemon"]]
        for route in states {
            for app in ["SampleIssuer", "TestHelper"] {
                #expect(try WalletHostCommand.run(["app", "open", app, "--apps", apps.path] + route).status == 0)
            }
        }
        let routes = [states[0], states[1] + ["--deadline", "status=5s"]]
        let before = try await served(daemon)
        // The bank by name, the sign-in (user name, password, action 1: Log In), then cards 1 and 3.
        let runs = try routes.map {
            try Self.run(["add-card", "--interactive", "--apps", apps.path] + $0, input: "SampleIssuer\njappleseed\nwallet-demo\n1\n1,3\n")
        }
        #expect(try await served(daemon) > before + 1, "host.status and wallet.addCard went through the daemon")
        #expect(runs[0].status == 0, "\(runs[0].output)")
        #expect(runs[0].status == runs[1].status)
        #expect(runs[0].output.contains("Wallet lists 2 banks:"), "\(runs[0].output)")
        #expect(runs[0].output.contains("The bank offers 3 cards:"), "\(runs[0].output)")
        #expect(runs[0].output.hasSuffix("Added 2 card(s) to iPhone.\n"), "\(runs[0].output)")
        #expect(Self.normalized(runs[0].output) == Self.normalized(runs[1].output), "\(runs[0].output)\n---\n\(runs[1].output)")
        try await Self.stop(daemon)
    }

    @Test func conformPrintsAndWritesTheSameReportsThroughTheDaemonAndInProcess() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.testHelperApp])
        let appex = apps.appendingPathComponent("TestHelper.app/PlugIns/TestHelperExt.appex").path
        let daemon = try await DaemonProcess(apps: apps).waitUntilServing()
        let reports = try TemporaryDirectory().url
        // Opened once beforehand, so that neither run is the one that opens it first.
        #expect(try WalletHostCommand.run(["app", "open", "TestHelper", "--apps", apps.path, "--state", daemon.state.path]).status == 0)
        var pages: [String] = []
        for (index, route) in [[String](), ["--no-daemon"]].enumerated() {
            let html = reports.appendingPathComponent("conform-\(index).html")
            let common = ["conform", appex, "--state", daemon.state.path] + route
            let human = try WalletHostCommand.run(common + ["--html", html.path])
            #expect(human.status == 0, "\(human.standardOutput)")
            let json = try WalletHostCommand.run(common + ["--json"])
            #expect(json.status == 0)
            // Written through the daemon too: that route used to leave --html unwritten.
            pages.append(Self.normalized(try String(contentsOf: html, encoding: .utf8)))
            pages.append(Self.normalized(human.standardOutput.replacingOccurrences(of: html.path, with: "PAGE")))
            pages.append(Self.normalized(json.standardOutput))
        }
        #expect(pages[0] == pages[3], "the HTML page")
        #expect(pages[1] == pages[4], "the human report:\n\(pages[1])\n---\n\(pages[4])")
        #expect(pages[2] == pages[5], "the JSON report:\n\(pages[2])\n---\n\(pages[5])")
        try await Self.stop(daemon)
    }
}
