import Foundation
import Wallet
import WalletBundleInspection
import WalletDaemonClient
import WalletHostRuntime
import WalletWire

/// The client API's methods: host status and shutdown, apps, passes and device state,
/// discovery, the add-card flow, extension calls and conformance, event subscription and
/// processes.
public struct WalletMethods: Sendable {
    public let server: DaemonServer
    public let stateDirectory: URL
    /// Starts the daemon's shutdown (the serve command's drain).
    public let requestShutdown: @Sendable () -> Void

    public init(server: DaemonServer, stateDirectory: URL, requestShutdown: @escaping @Sendable () -> Void) {
        self.server = server
        self.stateDirectory = stateDirectory
        self.requestShutdown = requestShutdown
    }

    private var pool: ExtensionPool { server.pool }
    private var device: SimulatedDevice { server.pool.device }

    /// Registers every method on the server.
    public func register() {
        let server = server
        server.register(DaemonMethods.hostStatus.name) { _ in await status() }
        server.register(DaemonMethods.hostShutdown.name, answeringAtOnce: { _ in
            requestShutdown()
            return DaemonAPI.Stopping(stopping: true)
        })
        server.register(DaemonMethods.appsList.name) { _ in await appsList() }
        server.register(DaemonMethods.appsReload.name) { _ in await server.pool.reload() }
        server.register(DaemonMethods.appsOpen.name) { call in try await openApp(call.params(DaemonAPI.OpenAppParams.self)) }
        server.register(DaemonMethods.passesList.name, answeringAtOnce: { call in
            let params = try call.params(DaemonAPI.DeviceParams.self)
            return try device.passes().filter { params.device == nil || $0.device == params.device }
        })
        server.register(DaemonMethods.passesAdd.name) { call in
            let params = try call.params(DaemonAPI.PassParams.self)
            let pass = PassRecord(primaryAccountIdentifier: params.primaryAccountIdentifier,
                                  primaryAccountNumberSuffix: params.primaryAccountNumberSuffix ?? "0000",
                                  device: params.device ?? .iphone, issuer: params.issuer ?? "manual", team: params.team)
            try device.addPass(pass)
            return pass
        }
        server.register(DaemonMethods.passesRemove.name) { call in
            let params = try call.params(DaemonAPI.PassParams.self)
            return DaemonAPI.Removed(removed: try device.removePass(primaryAccountIdentifier: params.primaryAccountIdentifier,
                                                                    device: params.device))
        }
        server.register(DaemonMethods.passesReset.name) { call in
            try device.resetPasses(device: call.params(DaemonAPI.DeviceParams.self).device)
            return ["reset": true]
        }
        server.register(DaemonMethods.deviceGet.name, answeringAtOnce: { _ in try device.settings() })
        server.register(DaemonMethods.deviceSet.name) { call in
            let params = try call.params(DaemonAPI.DeviceSettingsParams.self)
            if let paired = params.watchPaired { try device.updateSettings { $0.watchPaired = paired } }
            return try device.settings()
        }
        server.register(DaemonMethods.walletDiscover.name) { call in
            let params = try call.params(DaemonAPI.DeviceParams.self)
            let flow = await makeFlow(userAgent: nil, transcript: { _ in })
            let found = await flow.discoverTimed(params.device ?? .iphone)
            return DaemonAPI.Discovered(issuers: found.issuers, milliseconds: found.milliseconds)
        }
        server.register(DaemonMethods.walletAddCard.name) { call in try await addCard(call) }
        server.register(DaemonMethods.eventsSubscribe.name, answeringAtOnce: { call in try subscribe(call) })
        server.register(DaemonMethods.eventsUnsubscribe.name, answeringAtOnce: { call in
            let params = try call.params(DaemonAPI.UnsubscribeParams.self)
            guard call.client.removeSubscription(params.subscription) else {
                throw RPCErrorObject(code: RPCErrorCode.invalidParams, message: "this client has no subscription \(params.subscription)")
            }
            server.hub.unsubscribe(params.subscription)
            return ["unsubscribed": params.subscription]
        })
        server.register(DaemonMethods.processesList.name) { _ in DaemonAPI.Processes(processes: await server.pool.processes()) }
        ExtensionCallMethod.register(on: server)
        ExtensionConformMethod.register(on: server)
    }

    private func status() async -> DaemonAPI.Status {
        let counts = pool.counts
        let listings = await pool.processes()
        return DaemonAPI.Status(
            pid: getpid(), version: DaemonAPI.version, stateDirectory: stateDirectory.path,
            appsDirectory: pool.appsDirectory.path, socket: server.socketPath, keepWarm: pool.keepWarm,
            idleTimeoutSeconds: pool.configuration.idleTimeout.map { $0.milliseconds / 1000 },
            uptimeSeconds: (Date().timeIntervalSince(server.startedAt) * 10).rounded() / 10,
            clients: server.clientCount, maximumClients: server.limits.maximumClients,
            clientRequestsInFlight: server.limits.connection.requestsInFlight, refusedClients: server.refusedClients,
            requestsInFlight: server.requestsInFlight, requestsServed: server.requestsServed, extensions: counts.runners,
            runningProcesses: listings.filter { $0.pid != nil }.count, subscriptions: server.hub.subscriptionCount,
            reloads: pool.reloads, bundleChecksSkipped: pool.bundleChecksSkipped, refusedPeers: server.refusedPeers, droppedEvents: server.droppedLines,
            draining: server.isDraining)
    }

    private func appsList() async -> DaemonAPI.AppsList {
        let installed = pool.installed
        return DaemonAPI.AppsList(
            appsDirectory: pool.appsDirectory.path,
            apps: installed.apps.map { app in
                DaemonAPI.InstalledApp(bundleIdentifier: app.bundleIdentifier, name: app.name, path: app.url.path,
                                       extensions: app.extensions.map {
                                           .init(bundleIdentifier: $0.bundleIdentifier, role: $0.role, path: $0.url.path)
                                       })
            },
            problems: installed.findings.filter(\.isError).map(\.description))
    }

    private func openApp(_ params: DaemonAPI.OpenAppParams) async throws -> DaemonAPI.OpenedApp {
        let installed = pool.installed
        let app: AppBundle
        if params.app.hasSuffix(".app") || params.app.hasPrefix("/") {
            let (loaded, findings) = BundleLoader.wallet.loadApp(at: URL(fileURLWithPath: params.app))
            guard let loaded else {
                throw DaemonError("cannot load \(params.app):\n" + findings.filter(\.isError).map { "  \($0)" }.joined(separator: "\n"))
            }
            app = loaded
        } else {
            guard let found = installed.app(named: params.app) else {
                throw DaemonError("no app called \(params.app) in \(pool.appsDirectory.path)")
            }
            app = found
        }
        var launcher = AppLauncher(device: device, configuration: pool.configuration)
        // A client may tighten the daemon's quota for its app, never loosen it.
        if let asked = params.containerQuotaBytes {
            launcher.containerQuotaBytes = min(asked, launcher.containerQuotaBytes ?? asked)
        }
        let bounded = launcher
        // Opening runs the app to its end: off the cooperative threads, which must never block.
        let result = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try bounded.open(app) })
            }
        }
        return DaemonAPI.OpenedApp(app: app.bundleIdentifier, name: app.name, stdout: result.run.stdoutLines,
                                   milliseconds: result.run.milliseconds)
    }

    private func makeFlow(userAgent: (any UserAgent)?, transcript: @escaping @Sendable (String) -> Void) async -> AddCardFlow {
        let pool = pool
        return AddCardFlow(installed: pool.installed, device: device, configuration: pool.configuration,
                           userAgent: userAgent, transcript: transcript,
                           runnerSource: { DaemonRunnerSource(pool: pool, userAgent: userAgent) })
    }

    private func addCard(_ call: DaemonCall) async throws -> FlowReport {
        let params = try call.params(DaemonAPI.AddCardParams.self)
        try device.checkStateReadable()
        let client = call.client
        let userAgent: (any UserAgent)? = params.userAgent == true ? ForwardingUserAgent(client: client) : nil
        var options = AddCardOptions(device: params.device ?? .iphone, issuer: params.issuer)
        if let select = params.select {
            options.selection = select == ["all"] ? .all : .identifiers(select)
        }
        var flow = await makeFlow(userAgent: userAgent) { line in
            client.notify(DaemonMethods.walletTranscript.name, DaemonAPI.TranscriptLine(line: line))
        }
        if client.connection == nil {
            // A page (the studio) draws the offered cards' art, which the report does not carry.
            flow.offeredEntries = { entries in client.notify(StudioServer.entriesNotification, ["entries": entries]) }
        } else if params.entries == true {
            // So does a client's page (`add-card --html`).
            flow.offeredEntries = { entries in
                client.notify(DaemonMethods.walletEntries.name, DaemonAPI.OfferedEntries(entries: entries))
            }
        }
        if params.choose == true { Self.forwardChoices(of: &flow, to: client) }
        for finding in pool.installed.findings where finding.isError {
            client.notify(DaemonMethods.walletTranscript.name, DaemonAPI.TranscriptLine(line: "! \(finding)"))
        }
        return await flow.run(options)
    }

    /// The bank and the cards the flow's params leave open, asked of the client that started it
    /// (its user picks them, as `add-card --interactive` asks in process); a client that does
    /// not answer leaves the flow's defaults (the first bank, every card).
    private static func forwardChoices(of flow: inout AddCardFlow, to client: ClientSession) {
        flow.chooseIssuer = { issuers in
            let answer = try? await client.request(DaemonMethods.walletChooseIssuer.name, DaemonAPI.IssuerChoice(issuers: issuers))
            return answer.flatMap { try? $0.decoded(as: DaemonAPI.ChosenIssuer.self) }?.issuer
        }
        flow.chooseEntries = { entries in
            let answer = try? await client.request(DaemonMethods.walletChooseEntries.name, DaemonAPI.OfferedEntries(entries: entries))
            guard let select = answer.flatMap({ try? $0.decoded(as: DaemonAPI.ChosenEntries.self) })?.select else { return nil }
            return select == ["all"] ? .all : .identifiers(select)
        }
    }

    private func subscribe(_ call: DaemonCall) throws -> DaemonAPI.Subscribed {
        let params = try call.params(DaemonAPI.SubscribeParams.self)
        var kinds: Set<HostEvent.Kind>?
        if let names = params.kinds {
            kinds = []
            for name in names {
                guard let kind = HostEvent.Kind(rawValue: name) else {
                    throw RPCErrorObject(code: RPCErrorCode.invalidParams,
                                         message: "no event kind \(name); kinds are \(HostEvent.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                kinds?.insert(kind)
            }
        }
        let client = call.client
        let outlet = client.outlet
        let id = server.hub.subscribe(EventHub.Subscription(kinds: kinds, bundleIdentifier: params.bundleIdentifier) { notification in
            outlet.send(notification, droppable: true)
        })
        guard client.addSubscription(id) else {
            server.hub.unsubscribe(id)
            throw RPCErrorObject(code: RPCErrorCode.serviceFailed, message: "the client left")
        }
        return DaemonAPI.Subscribed(subscription: id)
    }
}
