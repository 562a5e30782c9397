import WalletWire

/// A class the runtime can instantiate as an extension's principal class: a subclass of
/// ``PKIssuerProvisioningExtensionHandler`` (non-UI extension) or of
/// ``PKIssuerProvisioningAuthorizationViewController`` adopting
/// ``PKIssuerProvisioningExtensionAuthorizationProviding`` (UI extension).
///
/// Only the SDK's two base classes adopt it; pass your subclasses to
/// ``WalletExtension/main(principalClasses:)``.
public protocol WalletExtensionPrincipal: AnyObject, SendableMetatype {
    init()
}

/// The principal class named by `NSExtensionPrincipalClass`, sorted by what it can do.
enum PrincipalClass: Sendable {
    case provisioningHandler(PKIssuerProvisioningExtensionHandler.Type)
    case authorizationProvider(PKIssuerProvisioningAuthorizationViewController.Type)

    /// Which of the table's calls the class answers.
    var role: WireMethodRole {
        switch self {
        case .provisioningHandler: return .nonUI
        case .authorizationProvider: return .ui
        }
    }

    /// The calls the class answers, as listed in the `initialize` result: the table's calls of its role.
    var methods: [String] {
        WireMethods.calls(for: role).map(\.name)
    }

    /// How the SDK serves each of those calls, by method name.
    var routes: [String: CallRoute] {
        let routes: [CallRoute]
        switch self {
        case .provisioningHandler(let type): routes = type.callRoutes
        case .authorizationProvider(let type): routes = type.callRoutes
        }
        return Dictionary(routes.map { ($0.method.name, $0) }) { first, _ in first }
    }

    /// The module-qualified class name, e.g. `WNonUIExt.WNonUIExtHandler`.
    var name: String {
        switch self {
        case .provisioningHandler(let type): return String(reflecting: type)
        case .authorizationProvider(let type): return String(reflecting: type)
        }
    }
}

/// Finds the principal class from its name.
///
/// `_typeByName` finds any module-qualified class in the running binary, so an extension
/// normally registers nothing. The registration list covers names it cannot resolve
/// (classes nested in other types, or a name given without its module).
struct PrincipalClassResolver: Sendable {
    let registered: [any WalletExtensionPrincipal.Type]

    /// The principal class called `name`.
    /// - Throws: ``RPCErrorObject`` with ``RPCErrorCode/principalClassNotFound`` naming the
    ///   class, when no class has that name or the class is neither kind of principal.
    func resolve(_ name: String) throws(RPCErrorObject) -> PrincipalClass {
        let candidate: Any.Type? = _typeByName(name) ?? registered.first { type in
            let qualified = String(reflecting: type)
            return qualified == name || qualified.split(separator: ".").last.map(String.init) == name
        }
        guard let candidate else {
            throw RPCErrorObject(
                code: RPCErrorCode.principalClassNotFound,
                message: "principal class \(name) not found: the binary has no class of that name "
                    + "(use the module-qualified name, e.g. $(PRODUCT_MODULE_NAME).Handler, "
                    + "or pass the class to WalletExtension.main(principalClasses:))")
        }
        if let handler = candidate as? PKIssuerProvisioningExtensionHandler.Type {
            return .provisioningHandler(handler)
        }
        if let controller = candidate as? PKIssuerProvisioningAuthorizationViewController.Type {
            guard controller is PKIssuerProvisioningExtensionAuthorizationProviding.Type else {
                throw RPCErrorObject(
                    code: RPCErrorCode.principalClassNotFound,
                    message: "principal class \(name) does not adopt PKIssuerProvisioningExtensionAuthorizationProviding")
            }
            return .authorizationProvider(controller)
        }
        throw RPCErrorObject(
            code: RPCErrorCode.principalClassNotFound,
            message: "principal class \(name) is neither a PKIssuerProvisioningExtensionHandler subclass "
                + "nor a PKIssuerProvisioningAuthorizationViewController subclass")
    }
}
