// Benchmarks for the host's launch and call paths, run by scripts/bench. Every figure is a
// median printed beside a baseline measured in the same run and interleaved with it (this
// machine is shared and noisy), with the ratio between the two.
//
// Cold: a C extension (no runtime, no handler cost) through the host against the same binary
// spawned bare (posix_spawn, initialize, status); the minimal SDK extension through the host
// against a bare Swift+Foundation process. Warm: a status round trip through the host, C and
// SDK, against a raw one-line pipe echo between two processes.
import Foundation
import WalletHostRuntime
import WalletWire

struct Options {
    var bundles = URL(fileURLWithPath: ".build/bundles")
    var bareProcess = ""
    var minimalExtension = ""
    var cExtension = ""
    var pipeEcho = ""
    /// The `wallet-host` executable, for cold calls in a fresh host process; empty to skip them.
    var commandLine = ""
    var coldRuns = 60
    /// Rounds of fresh `wallet-host call`s (`--only fresh`), each variant once a round.
    var freshRuns = 25
    /// Another build's `wallet-host` (the commit before a change) for the fresh calls to compare in the same rounds.
    var baseCommandLine: String?
    var warmRuns = 3000
    /// `network`, `cold`, `fresh`, `warm`, `keychain` or nil for all (to profile one path at a time).
    var only: String?
}

func parseOptions() -> Options {
    var options = Options()
    var arguments = CommandLine.arguments.dropFirst().makeIterator()
    while let argument = arguments.next() {
        switch argument {
        case "--bundles": options.bundles = URL(fileURLWithPath: arguments.next() ?? "")
        case "--bare": options.bareProcess = arguments.next() ?? ""
        case "--minimal": options.minimalExtension = arguments.next() ?? ""
        case "--c-extension": options.cExtension = arguments.next() ?? ""
        case "--pipe-echo": options.pipeEcho = arguments.next() ?? ""
        case "--cli": options.commandLine = arguments.next() ?? ""
        case "--cold-runs": options.coldRuns = Int(arguments.next() ?? "") ?? options.coldRuns
        case "--base-cli": options.baseCommandLine = arguments.next()
        case "--fresh-runs": options.freshRuns = Int(arguments.next() ?? "") ?? options.freshRuns
        case "--warm-runs": options.warmRuns = Int(arguments.next() ?? "") ?? options.warmRuns
        case "--only": options.only = arguments.next()
        default: fatalError("unknown option \(argument)")
        }
    }
    return options
}

func configuration(sandbox: SandboxMode = .auto, reusesRoot: Bool = true, controlGroups: ControlGroupMode = .auto,
                   network: NetworkMode = .proxy) -> HostConfiguration {
    var configuration = HostConfiguration()
    configuration.network = network
    configuration.idleTimeout = nil
    configuration.stopGrace = .milliseconds(500)
    configuration.sandbox = sandbox
    configuration.sandboxReusesRoot = reusesRoot
    configuration.controlGroups = controlGroups
    return configuration
}

/// One cold status call on a fresh runner, stopped after; the elapsed ms.
func coldStatus(_ descriptor: ExtensionDescriptor, sandbox: SandboxMode = .auto, reusesRoot: Bool = true,
                network: NetworkMode = .proxy) async -> Double {
    let runner = ExtensionRunner(descriptor: descriptor, configuration: configuration(sandbox: sandbox, reusesRoot: reusesRoot,
                                                                                      network: network))
    let (elapsed, failure) = await timedStatus(runner)
    if let failure { fatalError("cold status of \(descriptor.executableName) failed: \(failure)") }
    await runner.stop()
    return elapsed
}

/// A cold status call and the stop after it, the stop included (it removes the launch's
/// control groups); the elapsed ms.
func coldStatusAndStop(_ descriptor: ExtensionDescriptor, controlGroups: ControlGroupMode) async -> Double {
    let started = ContinuousClock.now
    let runner = ExtensionRunner(descriptor: descriptor, configuration: configuration(controlGroups: controlGroups))
    let (_, failure) = await timedStatus(runner)
    if let failure { fatalError("cold status of \(descriptor.executableName) failed: \(failure)") }
    await runner.stop()
    return milliseconds(ContinuousClock.now - started)
}

/// One call without params; the elapsed time from the ask to the outcome in ms, and the failure if any.
func timedCall<Answer: Decodable & Sendable>(_ runner: ExtensionRunner, _ method: String, _ answer: Answer.Type) async
    -> (Double, String?) {
    let started = ContinuousClock.now
    let outcome = await runner.call(method, params: NoParams(), resultType: answer)
    let elapsed = milliseconds(ContinuousClock.now - started)
    if case .failure(let error) = outcome.result { return (elapsed, error.message) }
    return (elapsed, nil)
}

/// One status call, timed as ``timedCall(_:_:_:)``.
func timedStatus(_ runner: ExtensionRunner) async -> (Double, String?) {
    await timedCall(runner, WireMethod.status, StatusResult.self)
}

let options = parseOptions()
let minimal = try benchExtension(executable: options.minimalExtension, name: "MinimalStatusExt",
                                 principalClass: "MinimalStatusExt.MinimalStatusHandler")
let cStatus = try benchExtension(executable: options.cExtension, name: "CStatusExt", principalClass: "CStatusExt.Handler")
defer { removeBenchBundles() }
print("wallet-host benchmarks (\(ProcessInfo.processInfo.activeProcessorCount) cores)")
print("")

if options.only == nil || options.only == "network" {
    // What each --network costs a cold launch, against --sandbox off, interleaved in one run.
    var byMode: [NetworkMode: [Double]] = [:]
    var off: [Double] = []
    for _ in 0..<options.coldRuns {
        off.append(await coldStatus(cStatus, sandbox: .off))
        for mode in NetworkMode.allCases { byMode[mode, default: []].append(await coldStatus(cStatus, network: mode)) }
    }
    report("cold status, C ext, --sandbox off", off)
    for mode in NetworkMode.allCases {
        let samples = byMode[mode] ?? []
        report("cold status, C ext, --network \(mode.rawValue)", samples)
        print(String(format: "--network %@: %.3f ms vs %.3f ms with --sandbox off (+%.3f ms; target <= +1.5 ms)",
                     mode.rawValue, median(samples), median(off), median(samples) - median(off)))
    }
    print("")
}

if options.only == nil || options.only == "cold" {
    // Cold: every host launch is interleaved with its baseline so both see the same load.
    var bareC: [Double] = []
    var coldC: [Double] = []
    var bareSwift: [Double] = []
    var coldSDK: [Double] = []
    // A fresh host process pays its first-use costs on the call (thread start, first event
    // written, first encoder use): what `wallet-host call` users see. Its own totalMs is read.
    var freshHostC: [Double] = []
    // The same cold calls with the sandbox off: what the sandbox (init, namespaces, mounts) costs.
    var unsandboxedC: [Double] = []
    var unsandboxedSDK: [Double] = []
    // And with a sandbox root built at each launch instead of copied from the extension's template.
    var builtRootC: [Double] = []
    // Launch, call and stop with and without the launch's control groups (made before the
    // spawn, removed after the stop), where this host gets them.
    let groupsAvailable = ControlGroups.hostDirectories != nil
    var launchWithGroups: [Double] = []
    var launchWithoutGroups: [Double] = []
    for run in 0..<options.coldRuns {
        if !options.commandLine.isEmpty, run < 30 {
            freshHostC.append(try freshHostTotalMilliseconds(commandLine: options.commandLine, appex: cStatus.bundlePath))
        }
        bareC.append(bareSpawnToStatus(executablePath: cStatus.executablePath))
        let cRunner = ExtensionRunner(descriptor: cStatus, configuration: configuration())
        let (cElapsed, cFailure) = await timedStatus(cRunner)
        if let cFailure { fatalError("cold status of the C extension failed: \(cFailure)") }
        coldC.append(cElapsed)
        await cRunner.stop()

        bareSwift.append(milliseconds(try ProcessProbe.spawnToFirstLine(executablePath: options.bareProcess)))
        let sdkRunner = ExtensionRunner(descriptor: minimal, configuration: configuration())
        let (sdkElapsed, sdkFailure) = await timedStatus(sdkRunner)
        if let sdkFailure { fatalError("cold status of the SDK extension failed: \(sdkFailure)") }
        coldSDK.append(sdkElapsed)
        await sdkRunner.stop()

        unsandboxedC.append(await coldStatus(cStatus, sandbox: .off))
        unsandboxedSDK.append(await coldStatus(minimal, sandbox: .off))
        builtRootC.append(await coldStatus(cStatus, reusesRoot: false))
        if groupsAvailable {
            launchWithGroups.append(await coldStatusAndStop(cStatus, controlGroups: .auto))
            launchWithoutGroups.append(await coldStatusAndStop(cStatus, controlGroups: .off))
        }
    }
    report("cold, C ext, bare (posix_spawn+initialize+status)", bareC)
    report("cold status, C ext, through the host", coldC)
    if !freshHostC.isEmpty { report("cold status, C ext, fresh `wallet-host call`", freshHostC) }
    report("bare Swift+Foundation spawn to first line", bareSwift)
    report("cold status, minimal SDK ext, through the host", coldSDK)
    print("")
    print(String(format: "cold C ext: host %.3f ms vs bare %.3f ms = %.2fx; the host adds %.3f ms (target <= 1 ms)",
                 median(coldC), median(bareC), median(coldC) / median(bareC), median(coldC) - median(bareC)))
    if !freshHostC.isEmpty {
        print(String(format: "cold C ext, fresh `wallet-host call`: %.3f ms vs bare %.3f ms = %.2fx; the host adds %.3f ms (target <= 1 ms)",
                     median(freshHostC), median(bareC), median(freshHostC) / median(bareC), median(freshHostC) - median(bareC)))
    }
    print(String(format: "cold SDK ext: host %.3f ms vs bare Swift spawn %.3f ms = %.2fx (target <= 1.5x)",
                 median(coldSDK), median(bareSwift), median(coldSDK) / median(bareSwift)))
    report("cold status, C ext, host, --sandbox off", unsandboxedC)
    report("cold status, SDK ext, host, --sandbox off", unsandboxedSDK)
    report("cold status, C ext, host, root built per launch", builtRootC)
    print(String(format: "sandbox, C ext: %.3f ms sandboxed vs %.3f ms off = %.2fx (+%.3f ms; target <= +1 ms)",
                 median(coldC), median(unsandboxedC), median(coldC) / median(unsandboxedC), median(coldC) - median(unsandboxedC)))
    print(String(format: "sandbox, C ext, root built per launch: %.3f ms vs %.3f ms off = %.2fx (+%.3f ms)",
                 median(builtRootC), median(unsandboxedC), median(builtRootC) / median(unsandboxedC),
                 median(builtRootC) - median(unsandboxedC)))
    print(String(format: "sandbox, SDK ext: %.3f ms sandboxed vs %.3f ms off = %.2fx (+%.3f ms)",
                 median(coldSDK), median(unsandboxedSDK), median(coldSDK) / median(unsandboxedSDK),
                 median(coldSDK) - median(unsandboxedSDK)))
    if groupsAvailable {
        report("cold status and stop, C ext, control groups", launchWithGroups)
        report("cold status and stop, C ext, control groups off", launchWithoutGroups)
        print(String(format: "control groups, C ext: %.3f ms with vs %.3f ms off = %.2fx (+%.3f ms per launch: make, move in, remove)",
                     median(launchWithGroups), median(launchWithoutGroups), median(launchWithGroups) / median(launchWithoutGroups),
                     median(launchWithGroups) - median(launchWithoutGroups)))
    } else {
        print("control groups: unavailable here (\(ControlGroups.unavailableReason ?? "unknown"))")
    }
    print("")
}

if (options.only == nil || options.only == "fresh"), !options.commandLine.isEmpty {
    try freshCallBench(commandLine: options.commandLine, baseCommandLine: options.baseCommandLine, appex: cStatus.bundlePath,
                       runs: options.freshRuns)
    print("")
}

if options.only == nil || options.only == "warm" {
    // Warm: rounds of raw echo, C ext and SDK ext in turn, so a burst of load hits all three.
    let echo = BareProcess(executablePath: options.pipeEcho, environment: [:])
    let cRunner = ExtensionRunner(descriptor: cStatus, configuration: configuration())
    let sdkRunner = ExtensionRunner(descriptor: minimal, configuration: configuration())
    // The same C extension without control groups: what its group costs a warm call.
    let cRunnerWithoutGroups = ExtensionRunner(descriptor: cStatus, configuration: configuration(controlGroups: .off))
    await cRunner.prewarm()
    await cRunnerWithoutGroups.prewarm()
    await sdkRunner.prewarm()
    let sdkPid = sdkRunner.pid!
    try await Task.sleep(for: .milliseconds(100))
    let footprintAfterHandshake = ProcessProbe.footprintBytes(pid: sdkPid) ?? -1
    var echoTimes: [Double] = []
    var echoSameCore: [Double] = []
    var echoAcrossCores: [Double] = []
    var warmC: [Double] = []
    var warmCWithoutGroups: [Double] = []
    var warmSDK: [Double] = []
    var failures: [String] = []
    let rounds = 10
    for _ in 0..<rounds {
        for _ in 0..<(options.warmRuns / rounds) {
            let started = ContinuousClock.now
            echo.roundTrip(BareLines.status)
            echoTimes.append(milliseconds(ContinuousClock.now - started))
        }
        echoSameCore += try pinnedEchoTimes(pipeEcho: options.pipeEcho, count: options.warmRuns / rounds, across: false)
        echoAcrossCores += try pinnedEchoTimes(pipeEcho: options.pipeEcho, count: options.warmRuns / rounds, across: true)
        for _ in 0..<(options.warmRuns / rounds) {
            let (elapsed, failure) = await timedStatus(cRunner)
            warmC.append(elapsed)
            if let failure { failures.append("C: \(failure)") }
        }
        for _ in 0..<(options.warmRuns / rounds) {
            let (elapsed, failure) = await timedStatus(cRunnerWithoutGroups)
            warmCWithoutGroups.append(elapsed)
            if let failure { failures.append("C, control groups off: \(failure)") }
        }
        for _ in 0..<(options.warmRuns / rounds) {
            let (elapsed, failure) = await timedStatus(sdkRunner)
            warmSDK.append(elapsed)
            if let failure { failures.append("SDK: \(failure)") }
        }
    }
    let footprintAfterCalls = ProcessProbe.footprintBytes(pid: sdkPid) ?? -1
    echo.finish()
    await cRunner.stop()
    await cRunnerWithoutGroups.stop()
    await sdkRunner.stop()

    // For scale: the sample issuer's warm status, which asks the host for the pass library and
    // reads its App Group defaults on every call (skipped when its bundle is not there).
    var sampleWarm: [Double] = []
    if let sample = try? descriptor(options.bundles.appendingPathComponent("SampleIssuer.app/PlugIns/WNonUIExt.appex")) {
        let sampleRunner = ExtensionRunner(descriptor: sample, configuration: configuration())
        await sampleRunner.prewarm()
        for _ in 0..<min(options.warmRuns, 1000) {
            sampleWarm.append(await timedStatus(sampleRunner).0)
        }
        await sampleRunner.stop()
    }

    report("raw pipe echo, one line, two processes", echoTimes, unit: "us", scale: 1000)
    report("raw pipe echo, pinned to one core", echoSameCore, unit: "us", scale: 1000)
    report("raw pipe echo, pinned to two cores", echoAcrossCores, unit: "us", scale: 1000)
    report("warm status, C ext, through the host", warmC, unit: "us", scale: 1000)
    report("warm status, C ext, control groups off", warmCWithoutGroups, unit: "us", scale: 1000)
    report("warm status, minimal SDK ext, through the host", warmSDK, unit: "us", scale: 1000)
    if !sampleWarm.isEmpty { report("warm status, sample issuer, through the host", sampleWarm, unit: "us", scale: 1000) }
    print("")
    // The unpinned echo is the baseline the target names; the pinned ones show what a round
    // trip costs when the scheduler keeps both sides on one core, and when it cannot.
    let echoMedian = median(echoTimes) * 1000
    let acrossMedian = median(echoAcrossCores) * 1000
    for (name, values) in [("C ext", warmC), ("SDK ext", warmSDK)] {
        let host = median(values) * 1000
        print(String(format: "warm %@: host %.1f us vs raw echo %.1f us = %.2fx (target <= 1.5x); vs echo across cores %.1f us = %.2fx",
                     name, host, echoMedian, host / echoMedian, acrossMedian, host / acrossMedian))
    }
    print("\(failures.count) of \(warmC.count + warmSDK.count) warm calls failed")
    for failure in failures.prefix(3) { print("  failed: \(failure)") }
    print(String(format: "minimal SDK extension footprint after handshake = %.2f MB, after %d calls = %.2f MB (target <= 4 MB)",
                 Double(footprintAfterHandshake) / 1_048_576, warmSDK.count, Double(footprintAfterCalls) / 1_048_576))
}

if options.only == nil || options.only == "keychain" {
    print("")
    try await keychainBench(bundles: options.bundles, runs: min(options.warmRuns, 500))
}
