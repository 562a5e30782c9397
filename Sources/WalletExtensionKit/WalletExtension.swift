import Dispatch
import WalletWire
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The entry point of an extension executable.
///
/// An extension's `main.swift` is one line:
///
/// ```swift
/// import WalletExtensionKit
///
/// WalletExtension.main()
/// ```
///
/// The runtime answers `initialize`, finds the class named by `NSExtensionPrincipalClass`
/// (e.g. `WNonUIExt.WNonUIExtHandler`) by its module-qualified name, and serves every call
/// with a fresh instance of it. Run by hand, outside wallet-host, the executable prints a
/// note and exits with status 2 instead of waiting for a host.
public enum WalletExtension {
    /// The runtime name reported in `initialize`.
    public static let runtimeName = "WalletExtensionKit"
    /// The runtime version reported in `initialize`.
    public static let version = "1.0.0"

    /// Runs the extension until the host says `exit` or closes the connection.
    ///
    /// - Parameter principalClasses: Classes to find by name when the runtime's lookup by
    ///   module-qualified name fails (a class nested in another type, or a principal class
    ///   written without its module). Usually empty.
    public static func main(principalClasses: [any WalletExtensionPrincipal.Type] = []) -> Never {
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
            resolver: PrincipalClassResolver(registered: principalClasses),
            terminate: { status in exit(status) },
            startThread: reader.startCall,
            beforeBlocking: reader.threadWillBlock)
        ExtensionRuntime.current.withLock { $0 = runtime }
        guard reader.start(runtime: runtime) else { exit(70) }
        // The main thread serves the main queue, so handler code may use @MainActor and
        // DispatchQueue.main as it would on iOS.
        dispatchMain()
    }
}
