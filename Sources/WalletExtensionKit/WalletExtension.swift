import Dispatch
import PassKit
import UIKit
import WalletExtensionRuntime
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// The entry point of an extension executable.
///
/// An extension's `main.swift`, the one file iOS does not have, names its principal class:
///
/// ```swift
/// import WalletExtensionKit
///
/// WalletExtension.main { WNonUIExtHandler() }
/// ```
///
/// The runtime answers `initialize`, checks that the class the host names (the
/// `NSExtensionPrincipalClass`, e.g. `WNonUIExt.WNonUIExtHandler`) is the registered one, and
/// serves every call with a fresh instance. Run by hand, outside wallet-host, the executable
/// prints a note and exits with status 2 instead of waiting for a host.
public enum WalletExtension {
    /// The runtime name reported in `initialize`.
    public static var runtimeName: String { RuntimeIdentity.name }
    /// The runtime version reported in `initialize`.
    public static var version: String { RuntimeIdentity.version }

    /// Runs a non-UI extension whose principal class `make` instantiates, once per call.
    public static func main<Handler: PKIssuerProvisioningExtensionHandler>(
        _ make: @escaping @Sendable () -> Handler
    ) -> Never {
        main(principals: [.handler(make)])
    }

    /// Runs a UI extension whose principal controller `make` instantiates, once per `authorize`.
    public static func main<Controller: UIViewController & PKIssuerProvisioningExtensionAuthorizationProviding>(
        _ make: @escaping @MainActor @Sendable () -> Controller
    ) -> Never {
        main(principals: [.authorizationController(make)])
    }

    /// Runs the extension until the host says `exit` or closes the connection, serving the
    /// principal among `principals` that the host names in `initialize`.
    public static func main(principals: [WalletExtensionPrincipal]) -> Never {
        guard getenv(WireEnvironment.protocolVersion) != nil else {
            Diagnostics.writeToStandardError("""
                This is an Apple Wallet issuer-provisioning extension; it is run by wallet-host, not directly. \
                Try: wallet-host call <path to .appex> status

                """)
            exit(2)
        }
        guard fcntl(WireProtocol.hostToExtensionFileDescriptor, F_GETFD) >= 0,
              fcntl(WireProtocol.extensionToHostFileDescriptor, F_GETFD) >= 0 else {
            Diagnostics.writeToStandardError("\(WireEnvironment.protocolVersion) is set but fd 3 and fd 4 are not open; "
                + "wallet-host passes its protocol pipes there.\n")
            exit(2)
        }
        // A write to a host that has gone must fail with EPIPE, not kill the process mid-call.
        signal(SIGPIPE, SIG_IGN)
        Diagnostics.makeStandardOutputLineBuffered()

        let reader = HostInputReader(fileDescriptor: WireProtocol.hostToExtensionFileDescriptor)
        let runtime = ExtensionRuntime(
            output: FileDescriptorOutput(fileDescriptor: WireProtocol.extensionToHostFileDescriptor),
            resolver: PrincipalClassResolver(registered: principals),
            terminate: { status in exit(status) },
            startThread: reader.startCall,
            beforeBlocking: reader.threadWillBlock)
        ExtensionRuntime.current.withLock { $0 = runtime }
        guard reader.start(runtime: runtime) else { exit(70) }
        // The main thread serves the main queue: UIKit's controllers run there, and handler
        // code may use @MainActor and DispatchQueue.main as it would on iOS.
        dispatchMain()
    }
}
