import Foundation
import WalletBundleInspection
import WalletHostRuntime
import WalletWire

/// Wallet's discovery: every installed issuer's `status`, concurrently, each within its
/// deadline, and the list Wallet would show for one device with a reason for every absence.
struct Discovery: Sendable {
    let installed: InstalledApps
    let device: SimulatedDevice
    let runners: any IssuerRunnerSource
    let transcript: @Sendable (String) -> Void

    struct Result {
        var issuers: [DiscoveredIssuer]
        var milliseconds: Double
    }

    func run(for kind: DeviceKind) async -> Result {
        let started = ContinuousClock.now
        // Settings that cannot be read must not read as "no app was ever opened".
        let settings: Swift.Result<DeviceSettings, any Error> = Swift.Result { try device.settings() }
        let issuers = await withTaskGroup(of: (Int, DiscoveredIssuer).self) { group in
            for (index, app) in installed.apps.enumerated() {
                group.addTask {
                    switch settings {
                    case .success(let settings):
                        return (index, await discover(app, kind: kind, settings: settings))
                    case .failure(let error):
                        return (index, DiscoveredIssuer(bundleIdentifier: app.bundleIdentifier, name: app.name, listed: false,
                                                         reason: "\(error)"))
                    }
                }
            }
            var found: [(Int, DiscoveredIssuer)] = []
            for await item in group { found.append(item) }
            return found.sorted { $0.0 < $1.0 }.map(\.1)
        }
        let elapsed = ContinuousClock.now - started
        transcript("Discovery on \(kind.deviceName) (\(HumanReadable.duration(elapsed))): \"From Apps on Your \(kind.deviceName)\"")
        for issuer in issuers {
            let timing = issuer.milliseconds.map { " (status \(HumanReadable.milliseconds($0)))" } ?? ""
            if issuer.listed {
                transcript("  ✔ \(issuer.name)\(timing)")
            } else {
                transcript("  ✘ \(issuer.name): \(issuer.reason ?? "not listed")\(timing)")
            }
        }
        return Result(issuers: issuers, milliseconds: elapsed.milliseconds)
    }

    private func discover(_ app: AppBundle, kind: DeviceKind, settings: DeviceSettings) async -> DiscoveredIssuer {
        var issuer = DiscoveredIssuer(bundleIdentifier: app.bundleIdentifier, name: app.name, listed: false)
        guard settings.launchedApps.contains(app.bundleIdentifier) else {
            issuer.reason = "never opened: Wallet lists an issuer only after its app was opened and logged in once"
            return issuer
        }
        let runner: ExtensionRunner?
        do {
            runner = try await runners.runner(for: app, role: .nonUI)
        } catch {
            issuer.reason = "\(error)"
            return issuer
        }
        guard let runner else {
            issuer.reason = "the app has no issuer-provisioning (non-UI) extension"
            return issuer
        }
        let outcome = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        issuer.milliseconds = outcome.totalMilliseconds
        switch outcome.result {
        case .failure(let error):
            issuer.reason = error.kind == .deadlineExceeded
                ? "status too slow: \(error.message)"
                : "status failed: \(error.message)"
        case .success(let status):
            issuer.status = status
            switch kind {
            case .iphone:
                issuer.listed = status.passEntriesAvailable
                if !issuer.listed { issuer.reason = "status says nothing to add to this iPhone (passEntriesAvailable false)" }
            case .watch:
                if !settings.watchPaired {
                    issuer.reason = "no Apple Watch is paired"
                } else {
                    issuer.listed = status.remotePassEntriesAvailable
                    if !issuer.listed {
                        issuer.reason = "status says nothing to add to the Apple Watch (remotePassEntriesAvailable false)"
                    }
                }
            }
        }
        return issuer
    }
}
