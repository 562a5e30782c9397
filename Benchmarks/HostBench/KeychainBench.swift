// The keychain's cost on a warm call: the test helper's passEntries reading its token with
// SecItemCopyMatching (one `keychain.copyMatching` round trip to the host, which reads
// keychain.json) against the same passEntries without it, interleaved, with 1 item in the
// keychain and with 1,000.
import Foundation
import Wallet
import WalletHostRuntime
import WalletWire

/// One warm passEntries, timed as ``timedCall(_:_:_:)``.
func timedEntries(_ runner: ExtensionRunner) async -> (Double, String?) {
    await timedCall(runner, WireMethod.passEntries, PassEntriesResult.self)
}

func keychainBench(bundles: URL, runs: Int) async throws {
    let appex = bundles.appendingPathComponent("TestHelper.app/PlugIns/TestHelperExt.appex")
    let modeFile = appex.appendingPathComponent("TestHelperMode")
    defer { try? FileManager.default.removeItem(at: modeFile) }
    let state = StateDirectory(url: benchApp.deletingLastPathComponent().appendingPathComponent("keychain-state"))
    let device = SimulatedDevice(state: state)
    var hostConfiguration = configuration()
    hostConfiguration.services = DeviceServices(device: device)
    let runner = ExtensionRunner(descriptor: try descriptor(appex), configuration: hostConfiguration)
    try Data("keychain-write token\n".utf8).write(to: modeFile)
    if let failure = await timedEntries(runner).1 { throw ConfigurationError("the helper could not store its token: \(failure)") }
    guard try device.keychainItems().count == 1 else { throw ConfigurationError("the helper's token is not in \(state.keychainDirectoryURL.path)") }

    var medians: [(items: Int, plain: Double, keychain: Double)] = []
    for itemCount in [1, 1000] {
        if itemCount > 1 {
            // Other teams' items (at most 256 per team: KeychainLimits), 200 to a team.
            for first in stride(from: 1, to: itemCount, by: 200) {
                let access = KeychainAccess(team: "com.example.other\(first / 200)", groups: ["com.example.other\(first / 200)"])
                _ = try device.changeKeychain(for: access) { store in
                    for index in first..<min(first + 200, itemCount) {
                        _ = store.add(KeychainAddParams(itemClass: KeychainStatus.genericPasswordClass,
                                                        attributes: KeychainAttributes(service: "filler", account: "account-\(index)"),
                                                        data: Data(repeating: 7, count: 32)),
                                      access: access)
                    }
                    return .success()
                }
            }
        }
        var plain: [Double] = []
        var keychain: [Double] = []
        var failures = 0
        for _ in 0..<runs {
            try Data("normal\n".utf8).write(to: modeFile)
            let (plainElapsed, plainFailure) = await timedEntries(runner)
            plain.append(plainElapsed)
            try Data("keychain-read\n".utf8).write(to: modeFile)
            let (keychainElapsed, keychainFailure) = await timedEntries(runner)
            keychain.append(keychainElapsed)
            failures += (plainFailure == nil ? 0 : 1) + (keychainFailure == nil ? 0 : 1)
        }
        report("warm passEntries, helper, \(itemCount) keychain item(s)", plain, unit: "us", scale: 1000)
        report("warm passEntries + SecItemCopyMatching, \(itemCount)", keychain, unit: "us", scale: 1000)
        if failures > 0 { print("\(failures) of \(2 * runs) calls failed") }
        medians.append((itemCount, median(plain), median(keychain)))
    }
    await runner.stop()
    print("")
    for (items, plain, keychain) in medians {
        print(String(format: "keychain read with %d item(s): %.1f us vs %.1f us without = %.2fx; one SecItemCopyMatching costs %.1f us",
                     items, keychain * 1000, plain * 1000, keychain / plain, (keychain - plain) * 1000))
    }
}
