// Benchmarks for the host's launch and call paths, run by scripts/bench. Prints medians,
// p90s and ratios against baselines measured in the same run (this machine is shared and noisy).
import Foundation
import WalletHostCore
import WalletWire

struct Options {
    var bundles = URL(fileURLWithPath: ".build/bundles")
    var bareProcess = ""
    var minimalExtension = ""
    var coldRuns = 60
    var warmRuns = 3000
}

func parseOptions() -> Options {
    var options = Options()
    var arguments = CommandLine.arguments.dropFirst().makeIterator()
    while let argument = arguments.next() {
        switch argument {
        case "--bundles": options.bundles = URL(fileURLWithPath: arguments.next() ?? "")
        case "--bare": options.bareProcess = arguments.next() ?? ""
        case "--minimal": options.minimalExtension = arguments.next() ?? ""
        case "--cold-runs": options.coldRuns = Int(arguments.next() ?? "") ?? options.coldRuns
        case "--warm-runs": options.warmRuns = Int(arguments.next() ?? "") ?? options.warmRuns
        default: fatalError("unknown option \(argument)")
        }
    }
    return options
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction + 0.5))]
}

func report(_ name: String, _ values: [Double], unit: String = "ms", scale: Double = 1) {
    let p50 = percentile(values, 0.5) * scale
    let p90 = percentile(values, 0.9) * scale
    let p99 = percentile(values, 0.99) * scale
    print(String(format: "%-44@ p50 %9.3f %@  p90 %9.3f %@  p99 %9.3f %@  (n=%d)", name as NSString, p50, unit, p90, unit,
                 p99, unit, values.count))
}

func descriptor(_ appex: URL) -> ExtensionDescriptor {
    let (bundle, findings) = BundleLoader().loadExtension(at: appex)
    guard let bundle else { fatalError("cannot load \(appex.path): \(findings)") }
    return ExtensionDescriptor(bundle: bundle, appGroups: [:])
}

func configuration() -> HostConfiguration {
    var configuration = HostConfiguration()
    configuration.idleTimeout = nil
    configuration.stopGrace = .milliseconds(500)
    return configuration
}

/// A bundle for the minimal SDK extension, made on the fly (it is no example issuer).
func minimalBundle(executable: String) throws -> URL {
    let appex = FileManager.default.temporaryDirectory.appendingPathComponent("wallet-host-bench-\(getpid())/Bench.app/PlugIns/MinimalStatusExt.appex")
    try FileManager.default.createDirectory(at: appex, withIntermediateDirectories: true)
    let app = appex.deletingLastPathComponent().deletingLastPathComponent()
    let appInfo: [String: Any] = ["CFBundleIdentifier": "com.example.bench", "CFBundleExecutable": "Bench"]
    let info: [String: Any] = [
        "CFBundleIdentifier": "com.example.bench.status", "CFBundleExecutable": "MinimalStatusExt", "MinimumOSVersion": "14.0",
        "NSExtension": ["NSExtensionPointIdentifier": WalletExtensionPoint.nonUI,
                        "NSExtensionPrincipalClass": "MinimalStatusExt.MinimalStatusHandler"],
    ]
    try PropertyListSerialization.data(fromPropertyList: appInfo, format: .xml, options: 0).write(to: app.appendingPathComponent("Info.plist"))
    try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0).write(to: appex.appendingPathComponent("Info.plist"))
    let target = appex.appendingPathComponent("MinimalStatusExt")
    try? FileManager.default.removeItem(at: target)
    try FileManager.default.copyItem(atPath: executable, toPath: target.path)
    return appex
}

let options = parseOptions()
let minimal = descriptor(try minimalBundle(executable: options.minimalExtension))
let sample = descriptor(options.bundles.appendingPathComponent("SampleIssuer.app/PlugIns/WNonUIExt.appex"))
print("wallet-host benchmarks (\(ProcessInfo.processInfo.activeProcessorCount) cores)")

// 1. Baseline: a bare Swift+Foundation process, spawn to first line, spawned the host's way.
var bare: [Double] = []
for _ in 0..<options.coldRuns {
    bare.append(milliseconds(try ProcessProbe.spawnToFirstLine(executablePath: options.bareProcess)))
}

// 2. Cold status through the host: spawn + handshake + fresh instance + status, interleaved with
//    the baseline's runs so both see the same machine load.
var cold: [Double] = []
var bareInterleaved: [Double] = []
for _ in 0..<options.coldRuns {
    bareInterleaved.append(milliseconds(try ProcessProbe.spawnToFirstLine(executablePath: options.bareProcess)))
    let runner = ExtensionRunner(descriptor: minimal, configuration: configuration())
    let started = ContinuousClock.now
    let outcome = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
    let elapsed = milliseconds(ContinuousClock.now - started)
    guard case .success = outcome.result else { fatalError("cold status failed: \(outcome.result)") }
    cold.append(elapsed)
    await runner.stop()
}

// 3. Warm status round trips on one process; 4. footprint after the handshake.
let runner = ExtensionRunner(descriptor: minimal, configuration: configuration())
await runner.prewarm()
let pid = await runner.pid!
try await Task.sleep(for: .milliseconds(100))
let footprintAfterHandshake = ProcessProbe.footprintBytes(pid: pid) ?? -1
var warm: [Double] = []
var warmFailures: [String] = []
for _ in 0..<options.warmRuns {
    let started = ContinuousClock.now
    let outcome = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
    warm.append(milliseconds(ContinuousClock.now - started))
    if case .failure(let error) = outcome.result { warmFailures.append(error.message) }
}
let footprintAfterCalls = ProcessProbe.footprintBytes(pid: pid) ?? -1
await runner.stop()

// 5. For scale: the sample issuer's warm status, which asks the host for the pass library and
//    reads its App Group defaults on every call.
let sampleRunner = ExtensionRunner(descriptor: sample, configuration: configuration())
await sampleRunner.prewarm()
var sampleWarm: [Double] = []
for _ in 0..<min(options.warmRuns, 1000) {
    let started = ContinuousClock.now
    _ = await sampleRunner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
    sampleWarm.append(milliseconds(ContinuousClock.now - started))
}
await sampleRunner.stop()

print("")
report("bare Swift+Foundation spawn to first line", bare + bareInterleaved)
report("cold status through the host", cold)
report("warm status round trip (minimal SDK ext)", warm, unit: "us", scale: 1000)
report("warm status round trip (sample issuer)", sampleWarm, unit: "us", scale: 1000)
let ratio = percentile(cold, 0.5) / percentile(bare + bareInterleaved, 0.5)
print(String(format: "cold status p50 / bare spawn p50 = %.2fx (target <= 1.5x)", ratio))
print(String(format: "warm status p50 = %.1f us (target <= 100 us); %d of %d warm calls failed", percentile(warm, 0.5) * 1000,
             warmFailures.count, warm.count))
for failure in warmFailures.prefix(3) { print("  failed: \(failure)") }
print(String(format: "minimal SDK extension footprint after handshake = %.2f MB, after %d calls = %.2f MB (target <= 4 MB)",
             Double(footprintAfterHandshake) / 1_048_576, options.warmRuns, Double(footprintAfterCalls) / 1_048_576))
