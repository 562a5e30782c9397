/// The version of the wire protocol this module speaks.
///
/// A host and an extension agree on one integer in `initialize`; see docs/PROTOCOL.md
/// ("Versioning") for what each side does when the numbers differ.
public enum WireProtocol {
    /// The protocol version implemented by this module.
    public static let version = 1

    /// The file descriptor on which an extension reads host messages.
    public static let hostToExtensionFileDescriptor: Int32 = 3

    /// The file descriptor on which an extension writes its messages to the host.
    public static let extensionToHostFileDescriptor: Int32 = 4

    /// The longest line either side accepts, newline excluded: 16 MiB.
    public static let maximumLineBytes = 16 * 1024 * 1024
}

/// The environment variables the host sets for every extension process.
public enum WireEnvironment {
    /// Set to the protocol version (`"1"`) when a binary runs under the host.
    public static let protocolVersion = "WALLET_EXTENSION_PROTOCOL"
    /// The extension point identifier of the running extension.
    public static let extensionPoint = "WALLET_EXTENSION_POINT"
    /// The extension's bundle identifier.
    public static let bundleIdentifier = "WALLET_EXTENSION_BUNDLE_ID"
    /// The containing app's bundle identifier.
    public static let containingAppBundleIdentifier = "WALLET_EXTENSION_APP_BUNDLE_ID"
    /// App Group containers as a JSON object, group identifier -> container directory path.
    /// Set for extensions and for containing apps launched by the host.
    public static let appGroups = "WALLET_EXTENSION_APP_GROUPS"
    /// The extension's memory limit in bytes (informational; the rlimit is the enforcement).
    public static let memoryLimitBytes = "WALLET_EXTENSION_MEMORY_LIMIT"
}

/// Method names on the wire. They mirror PassKit's handler methods.
public enum WireMethod {
    // Host -> extension.
    public static let initialize = "initialize"
    public static let status = "status"
    public static let passEntries = "passEntries"
    public static let remotePassEntries = "remotePassEntries"
    public static let generateAddPaymentPassRequest = "generateAddPaymentPassRequest"
    public static let authorize = "authorize"
    public static let shutdown = "shutdown"
    /// Notification: the extension should exit now.
    public static let exit = "exit"
    /// Notification: the host no longer waits for the response to `id`.
    public static let cancelRequest = "$/cancelRequest"

    // Extension -> host services.
    public static let passLibraryPasses = "passLibrary.passes"
    public static let watchIsPaired = "watch.isPaired"
    public static let uiPrompt = "ui.prompt"
    public static let uiBiometric = "ui.biometric"
    public static let keychainAdd = "keychain.add"
    public static let keychainCopyMatching = "keychain.copyMatching"
    public static let keychainUpdate = "keychain.update"
    public static let keychainDelete = "keychain.delete"
    /// Notification: a log line from the extension (optional; stderr works too).
    public static let log = "$/log"

    /// Every method name above.
    public static let all: [String] = [
        initialize, status, passEntries, remotePassEntries, generateAddPaymentPassRequest, authorize, shutdown, exit,
        cancelRequest, passLibraryPasses, watchIsPaired, uiPrompt, uiBiometric, log,
        keychainAdd, keychainCopyMatching, keychainUpdate, keychainDelete,
    ]
}

/// Extension point identifiers of Apple Wallet's issuer provisioning extensions.
public enum WalletExtensionPoint {
    /// The non-UI extension: status, pass entries, add-payment-pass requests.
    public static let nonUI = "com.apple.PassKit.issuer-provisioning"
    /// The UI extension: user authorization.
    public static let authorization = "com.apple.PassKit.issuer-provisioning.authorization"
}
