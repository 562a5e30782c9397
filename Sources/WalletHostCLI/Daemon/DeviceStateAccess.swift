import Foundation
import Wallet
import WalletDaemonClient
import WalletWire

/// Where `passes`, `device` and `app open` read and change the simulated device: the state
/// directory in this process, or the daemon serving it. Both print the same.
protocol DeviceStateAccess {
    func passes() async throws -> [PassRecord]
    func addPass(_ pass: PassRecord) async throws -> PassRecord
    func removePass(primaryAccountIdentifier: String, device: DeviceKind?) async throws -> Int
    func resetPasses(device: DeviceKind?) async throws
    func settings() async throws -> DeviceSettings
    func setWatchPaired(_ paired: Bool) async throws
    /// Opens a containing app given by path, or by name or bundle identifier in the apps directory.
    /// - Parameter containerQuota: `--container-quota`: bytes, `.none` for unbounded (in this
    ///   process; a daemon keeps its own), nil when not given.
    func openApp(_ reference: String, appsDirectory: String?, containerQuota: Int??) async throws -> DaemonAPI.OpenedApp
}

/// The state directory, in this process.
struct LocalDeviceState: DeviceStateAccess {
    let device: SimulatedDevice

    func passes() throws -> [PassRecord] { try device.passes() }

    func addPass(_ pass: PassRecord) throws -> PassRecord {
        try device.addPass(pass)
        return pass
    }

    func removePass(primaryAccountIdentifier: String, device kind: DeviceKind?) throws -> Int {
        try device.removePass(primaryAccountIdentifier: primaryAccountIdentifier, device: kind)
    }

    func resetPasses(device kind: DeviceKind?) throws { try device.resetPasses(device: kind) }

    func settings() throws -> DeviceSettings { try device.settings() }

    func setWatchPaired(_ paired: Bool) throws { try device.updateSettings { $0.watchPaired = paired } }

    func openApp(_ reference: String, appsDirectory: String?, containerQuota: Int??) throws -> DaemonAPI.OpenedApp {
        let app = try StateCommands.loadApp(reference, appsDirectory: appsDirectory)
        var launcher = AppLauncher(device: device)
        if let containerQuota { launcher.containerQuotaBytes = containerQuota }
        let result = try launcher.open(app)
        return DaemonAPI.OpenedApp(app: app.bundleIdentifier, name: app.name, stdout: result.run.stdoutLines,
                                   milliseconds: result.run.milliseconds)
    }
}

/// The daemon serving the state directory.
struct DaemonDeviceState: DeviceStateAccess {
    let client: DaemonClient

    func passes() async throws -> [PassRecord] {
        try await DaemonRoute.call(client, DaemonMethods.passesList, DaemonAPI.DeviceParams())
    }

    func addPass(_ pass: PassRecord) async throws -> PassRecord {
        try await DaemonRoute.call(client, DaemonMethods.passesAdd,
                                   DaemonAPI.PassParams(primaryAccountIdentifier: pass.primaryAccountIdentifier,
                                                        primaryAccountNumberSuffix: pass.primaryAccountNumberSuffix,
                                                        device: pass.device, issuer: pass.issuer, team: pass.team))
    }

    func removePass(primaryAccountIdentifier: String, device: DeviceKind?) async throws -> Int {
        try await DaemonRoute.call(client, DaemonMethods.passesRemove,
                                   DaemonAPI.PassParams(primaryAccountIdentifier: primaryAccountIdentifier, device: device)).removed
    }

    func resetPasses(device: DeviceKind?) async throws {
        _ = try await DaemonRoute.call(client, DaemonMethods.passesReset, DaemonAPI.DeviceParams(device: device))
    }

    func settings() async throws -> DeviceSettings {
        try await DaemonRoute.call(client, DaemonMethods.deviceGet, NoParams())
    }

    func setWatchPaired(_ paired: Bool) async throws {
        _ = try await DaemonRoute.call(client, DaemonMethods.deviceSet, DaemonAPI.DeviceSettingsParams(watchPaired: paired))
    }

    func openApp(_ reference: String, appsDirectory: String?, containerQuota: Int??) async throws -> DaemonAPI.OpenedApp {
        let url = URL(fileURLWithPath: reference)
        let isPath = url.pathExtension == "app" || FileManager.default.fileExists(atPath: url.appendingPathComponent("Info.plist").path)
        return try await DaemonRoute.call(client, DaemonMethods.appsOpen,
                                          DaemonAPI.OpenAppParams(app: isPath ? url.standardizedFileURL.path : reference,
                                                                  containerQuotaBytes: containerQuota ?? nil))
    }
}
