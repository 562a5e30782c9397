import WalletWire

/// The principal class the host named in `initialize`, as the runtime serves it: its name,
/// the calls it answers and how each is served.
///
/// The runtime knows nothing of PassKit or UIKit; `WalletExtensionKit` builds this from the
/// classes an extension registers and hands the runtime a ``PrincipalResolving``.
package struct ServedPrincipal: Sendable {
    /// The module-qualified class name, e.g. `WNonUIExt.WNonUIExtHandler`.
    package let name: String
    /// The calls it answers, as listed in the `initialize` result.
    package let methods: [String]
    /// How the SDK serves each of those calls, by method name.
    package let routes: [String: CallRoute]

    package init(name: String, methods: [String], routes: [CallRoute]) {
        self.name = name
        self.methods = methods
        self.routes = Dictionary(routes.map { ($0.method.name, $0) }) { first, _ in first }
    }
}

/// Finds the principal class named in `initialize`.
package protocol PrincipalResolving: Sendable {
    /// The principal called `name`.
    /// - Throws: ``RPCErrorObject`` with ``RPCErrorCode/principalClassNotFound``, naming the class.
    func resolve(_ name: String) throws(RPCErrorObject) -> ServedPrincipal
}

/// What the extension reports about its runtime in `initialize`.
package enum RuntimeIdentity {
    /// The runtime name reported in `initialize`.
    package static let name = "WalletExtensionKit"
    /// The runtime version reported in `initialize`.
    package static let version = "2.0.0"
}
