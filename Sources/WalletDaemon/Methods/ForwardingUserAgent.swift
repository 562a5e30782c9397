import Foundation
import Wallet
import WalletBundleInspection
import WalletHostRuntime
import WalletWire

/// The user agent of a flow started through the daemon: the UI extension's `ui.prompt` and
/// `ui.biometric` go to the client that started the flow, as requests on its socket, and its
/// answers come back. A client that has left (or never offered to answer) fails the prompt,
/// as a user agent with no answer does.
struct ForwardingUserAgent: UserAgent {
    let client: ClientSession

    func prompt(_ prompt: UIPromptParams) async throws -> UIPromptResult {
        try decode(await client.request(WireMethod.uiPrompt, prompt))
    }

    func biometric(_ request: UIBiometricParams) async throws -> UIBiometricResult {
        try decode(await client.request(WireMethod.uiBiometric, request))
    }

    private func decode<Value: Decodable>(_ value: JSONValue) throws -> Value {
        do {
            return try JSONDecoder().decode(Value.self, from: JSONEncoder().encode(value))
        } catch {
            throw UserAgentError("the client answered with \(WireCodec.describe(error))")
        }
    }
}

/// The add-card flow's runners when it runs in the daemon: the pool's warm non-UI extensions,
/// and for the UI extension a process of this flow's own, whose prompts go to this flow's
/// client; it is stopped when the flow ends.
actor DaemonRunnerSource: IssuerRunnerSource {
    private let pool: ExtensionPool
    private let userAgent: (any UserAgent)?
    private var flowRunners: [ExtensionRunner] = []

    init(pool: ExtensionPool, userAgent: (any UserAgent)?) {
        self.pool = pool
        self.userAgent = userAgent
    }

    /// A non-UI extension's runner comes from the pool without entering this actor (a discovery
    /// asks for 100 at once).
    nonisolated func runner(for app: AppBundle, role: ExtensionRole) async throws -> ExtensionRunner? {
        guard let bundle = app.extensions(withRole: role).first else { return nil }
        guard role == .ui else {
            return try pool.runner(for: bundle)
        }
        return try await flowRunner(for: bundle)
    }

    private func flowRunner(for bundle: ExtensionBundle) throws -> ExtensionRunner {
        var configuration = pool.configuration
        configuration.services = DeviceServices(device: pool.device, userAgent: userAgent)
        configuration.idleTimeout = nil
        let descriptor = ExtensionDescriptor(bundle: bundle, appGroups: try pool.device.state.appGroupContainers(bundle.appGroups, team: bundle.team))
        let runner = ExtensionRunner(descriptor: descriptor, configuration: configuration)
        flowRunners.append(runner)
        return runner
    }

    func stopAll() async {
        let runners = flowRunners
        flowRunners.removeAll()
        for runner in runners { await runner.stop(reason: "flow finished") }
    }
}
