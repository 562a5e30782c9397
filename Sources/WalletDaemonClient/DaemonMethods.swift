import Wallet
import WalletWire

/// The daemon's client API, one declaration per method: name, params and result
/// (docs/DAEMON.md shows an exchange of each; `DaemonDocumentTests` checks it names them all).
/// The daemon registers its handlers under these names, the CLI and other clients call them.
public enum DaemonMethods {
    /// The daemon's state, limits and counters.
    public static let hostStatus = DaemonMethod<NoParams, DaemonAPI.Status>("host.status")
    /// Starts the daemon's drain and exit.
    public static let hostShutdown = DaemonMethod<NoParams, DaemonAPI.Stopping>("host.shutdown")
    /// The installed apps and the error findings of those that were not installed.
    public static let appsList = DaemonMethod<NoParams, DaemonAPI.AppsList>("apps.list")
    /// Reads the apps directory again.
    public static let appsReload = DaemonMethod<NoParams, ReloadSummary>("apps.reload")
    /// Opens an issuer's containing app, as the user does once before Wallet lists it.
    public static let appsOpen = DaemonMethod<DaemonAPI.OpenAppParams, DaemonAPI.OpenedApp>("apps.open")
    /// The pass library, of one device or both.
    public static let passesList = DaemonMethod<DaemonAPI.DeviceParams, [PassRecord]>("passes.list")
    /// Adds a pass by hand.
    public static let passesAdd = DaemonMethod<DaemonAPI.PassParams, PassRecord>("passes.add")
    /// Removes a pass.
    public static let passesRemove = DaemonMethod<DaemonAPI.PassParams, DaemonAPI.Removed>("passes.remove")
    /// Empties the pass library, of one device or both.
    public static let passesReset = DaemonMethod<DaemonAPI.DeviceParams, [String: Bool]>("passes.reset")
    /// The simulated device's settings.
    public static let deviceGet = DaemonMethod<NoParams, DeviceSettings>("device.get")
    /// Changes the simulated device's settings.
    public static let deviceSet = DaemonMethod<DaemonAPI.DeviceSettingsParams, DeviceSettings>("device.set")
    /// Wallet's discovery on the warm extensions.
    public static let walletDiscover = DaemonMethod<DaemonAPI.DeviceParams, DaemonAPI.Discovered>("wallet.discover")
    /// Wallet's add-card flow on the warm extensions; its transcript comes as ``walletTranscript``.
    public static let walletAddCard = DaemonMethod<DaemonAPI.AddCardParams, FlowReport>("wallet.addCard")
    /// One call of an extension's method on its warm process.
    public static let extensionCall = DaemonMethod<DaemonAPI.ExtensionCallParams, DaemonAPI.ExtensionCallAnswer>("extension.call")
    /// The conformance battery; each extension's report comes as ``conformReport``.
    public static let extensionConform = DaemonMethod<DaemonAPI.ConformParams, DaemonAPI.ConformAnswer>("extension.conform")
    /// Subscribes this client to host events (``eventsEvent``).
    public static let eventsSubscribe = DaemonMethod<DaemonAPI.SubscribeParams, DaemonAPI.Subscribed>("events.subscribe")
    /// Ends a subscription.
    public static let eventsUnsubscribe = DaemonMethod<DaemonAPI.UnsubscribeParams, [String: Int]>("events.unsubscribe")
    /// The daemon's extensions, as `wallet-host ps` lists them.
    public static let processesList = DaemonMethod<NoParams, DaemonAPI.Processes>("processes.list")

    /// Every method's name, in the order of the declarations above.
    public static let names: [String] = [
        hostStatus.name, hostShutdown.name, appsList.name, appsReload.name, appsOpen.name, passesList.name, passesAdd.name,
        passesRemove.name, passesReset.name, deviceGet.name, deviceSet.name, walletDiscover.name, walletAddCard.name,
        extensionCall.name, extensionConform.name, eventsSubscribe.name, eventsUnsubscribe.name, processesList.name,
    ]

    /// A line of the add-card flow's transcript, during ``walletAddCard``.
    public static let walletTranscript = DaemonNotification<DaemonAPI.TranscriptLine>("wallet.transcript")
    /// The entries an issuer offered the flow, during ``walletAddCard`` with `entries: true`.
    public static let walletEntries = DaemonNotification<DaemonAPI.OfferedEntries>("wallet.entries")

    /// The daemon asks the client which bank to add a card of, during ``walletAddCard`` with `choose: true`.
    public static let walletChooseIssuer = DaemonClientRequest<DaemonAPI.IssuerChoice, DaemonAPI.ChosenIssuer>("wallet.chooseIssuer")
    /// The daemon asks the client which cards to add (params as ``walletEntries``'), during
    /// ``walletAddCard`` with `choose: true`.
    public static let walletChooseEntries = DaemonClientRequest<DaemonAPI.OfferedEntries, DaemonAPI.ChosenEntries>("wallet.chooseEntries")
    /// A line of an extension's conformance report as its checks run, during ``extensionConform``
    /// (an empty line ends one extension's report).
    public static let conformReport = DaemonNotification<DaemonAPI.ConformReportText>("conform.report")
}
