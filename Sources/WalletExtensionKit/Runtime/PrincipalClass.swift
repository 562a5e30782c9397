import PassKit
import UIKit
import WalletExtensionRuntime
import WalletWire

/// A class an extension can serve as its principal class (`NSExtensionPrincipalClass`), with
/// how to make an instance: a ``PKIssuerProvisioningExtensionHandler`` subclass (non-UI
/// extension) or a `UIViewController` adopting ``PKIssuerProvisioningExtensionAuthorizationProviding``
/// (UI extension).
///
/// On iOS the system instantiates the class by name; Swift on Linux cannot call a
/// non-`required` initializer through a metatype, so `main.swift` hands the runtime a factory,
/// usually with ``WalletExtension/main(_:)-(()->Handler)``:
///
/// ```swift
/// WalletExtension.main { WNonUIExtHandler() }
/// ```
public struct WalletExtensionPrincipal: Sendable {
    /// The module-qualified class name, e.g. `WNonUIExt.WNonUIExtHandler`.
    public let className: String
    let served: ServedPrincipal

    /// A non-UI principal: `make` creates a handler for every call.
    public static func handler<Handler: PKIssuerProvisioningExtensionHandler>(
        _ make: @escaping @Sendable () -> Handler
    ) -> WalletExtensionPrincipal {
        principal(named: String(reflecting: Handler.self), role: .nonUI,
                  routes: PKIssuerProvisioningExtensionHandler.callRoutes(make: make))
    }

    /// A UI principal: `make` creates a controller for every `authorize` call, on the main thread.
    public static func authorizationController<Controller: UIViewController & PKIssuerProvisioningExtensionAuthorizationProviding>(
        _ make: @escaping @MainActor @Sendable () -> Controller
    ) -> WalletExtensionPrincipal {
        principal(named: String(reflecting: Controller.self), role: .ui, routes: AuthorizationRoutes.callRoutes(make: make))
    }

    private static func principal(named name: String, role: WireMethodRole, routes: [CallRoute]) -> WalletExtensionPrincipal {
        WalletExtensionPrincipal(
            className: name,
            served: ServedPrincipal(name: name, methods: WireMethods.calls(for: role).map(\.name), routes: routes))
    }
}

/// Finds the principal named in `initialize` among the classes `main.swift` registered, by
/// module-qualified name (`WNonUIExt.WNonUIExtHandler`) or by its last component.
struct PrincipalClassResolver: PrincipalResolving {
    let registered: [WalletExtensionPrincipal]

    func resolve(_ name: String) throws(RPCErrorObject) -> ServedPrincipal {
        let match = registered.first { $0.className == name }
            ?? registered.first { $0.className.split(separator: ".").last.map(String.init) == name }
        guard let match else {
            let known = registered.map(\.className).joined(separator: ", ")
            throw RPCErrorObject(
                code: RPCErrorCode.principalClassNotFound,
                message: "principal class \(name) not found: this extension registers "
                    + (known.isEmpty ? "no class" : known)
                    + " (main.swift: WalletExtension.main { \(name.split(separator: ".").last ?? "Handler")() })")
        }
        return match.served
    }
}
