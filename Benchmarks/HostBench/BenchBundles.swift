// Bundles for the benchmark-only extensions, made on the fly in a temporary directory (they
// are not example issuers, so Plists/ has none).
import Foundation
import Wallet
import WalletBundleInspection
import WalletHostRuntime
import WalletWire

/// The `.app` that holds the benchmark extensions; removed by ``removeBenchBundles()``.
let benchApp = FileManager.default.temporaryDirectory.appendingPathComponent("wallet-host-bench-\(getpid())/Bench.app")

/// Writes `Bench.app/PlugIns/<name>.appex` around a copy of `executable` and loads it.
/// - Parameters:
///   - name: the executable's and the bundle's name.
///   - principalClass: `NSExtensionPrincipalClass` (the SDK resolves it; a C extension ignores it).
func benchExtension(executable: String, name: String, principalClass: String) throws -> ExtensionDescriptor {
    let appex = benchApp.appendingPathComponent("PlugIns/\(name).appex")
    try FileManager.default.createDirectory(at: appex, withIntermediateDirectories: true)
    let appInfo: [String: Any] = ["CFBundleIdentifier": "com.example.bench", "CFBundleExecutable": "Bench"]
    let info: [String: Any] = [
        "CFBundleIdentifier": "com.example.bench.\(name)", "CFBundleExecutable": name, "MinimumOSVersion": "14.0",
        "NSExtension": ["NSExtensionPointIdentifier": WalletExtensionPoint.nonUI,
                        "NSExtensionPrincipalClass": principalClass],
    ]
    try PropertyListSerialization.data(fromPropertyList: appInfo, format: .xml, options: 0)
        .write(to: benchApp.appendingPathComponent("Info.plist"))
    try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0)
        .write(to: appex.appendingPathComponent("Info.plist"))
    let target = appex.appendingPathComponent(name)
    try? FileManager.default.removeItem(at: target)
    try FileManager.default.copyItem(atPath: executable, toPath: target.path)
    return try descriptor(appex)
}

/// Loads an extension bundle as the host does.
func descriptor(_ appex: URL) throws -> ExtensionDescriptor {
    let (bundle, findings) = BundleLoader.wallet.loadExtension(at: appex)
    guard let bundle else { throw ConfigurationError("cannot load \(appex.path): \(findings)") }
    return ExtensionDescriptor(bundle: bundle, appGroups: [:])
}

func removeBenchBundles() {
    try? FileManager.default.removeItem(at: benchApp.deletingLastPathComponent())
}

/// Runs `wallet-host call APPEX status --json` (with `extraArguments`) on the bench's state
/// directory and returns the `totalMs` it reports (ask to answer, measured inside that process).
func freshHostTotalMilliseconds(commandLine: String, appex: String, extraArguments: [String] = []) throws -> Double {
    try freshHostCall(commandLine: commandLine, appex: appex, extraArguments: extraArguments).total
}

/// One fresh `wallet-host call APPEX status --json`: the `totalMs` it reports and the wall time
/// from its start to its exit (process start-up and teardown included), both in ms.
func freshHostCall(commandLine: String, appex: String, extraArguments: [String] = []) throws -> (total: Double, wall: Double) {
    let state = benchApp.deletingLastPathComponent().appendingPathComponent("state")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: commandLine)
    process.arguments = ["call", appex, "status", "--state", state.path, "--json"] + extraArguments
    let output = Pipe()
    process.standardOutput = output
    let started = ContinuousClock.now
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let wall = milliseconds(ContinuousClock.now - started)
    guard let report = try JSONSerialization.jsonObject(with: data) as? [String: Any],
          let total = report["totalMs"] as? Double, report["result"] != nil else {
        throw ConfigurationError("wallet-host call failed: \(String(decoding: data, as: UTF8.self))")
    }
    return (total, wall)
}
