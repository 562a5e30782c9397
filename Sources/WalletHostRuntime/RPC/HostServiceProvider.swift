import Foundation
import WalletWire

/// A request an extension made of the host (`passLibrary.passes`, `watch.isPaired`, `ui.*`).
public struct ServiceRequest: Sendable {
    public var method: String
    /// The raw request line; decode parameters with ``params(_:)``.
    public var line: Data
    public var extensionPoint: String
    public var role: ExtensionRole
    /// The extension's own bundle identifier.
    public var bundleIdentifier: String
    /// The bundle identifier of the app the extension belongs to (its issuer), nil for an
    /// extension loaded on its own, outside an app's `PlugIns`.
    public var containingAppBundleIdentifier: String?
    /// The keychain access groups the extension may use, in iOS's order (its
    /// `keychain-access-groups`, its application identifier, its App Groups); the first is the
    /// default group of a new item. See ``BundleEntitlements/keychainAccessGroups(bundleIdentifier:team:)``.
    public var keychainAccessGroups: [String]
    /// The extension's team (``ExtensionBundle/team``): keychain items are kept per team and
    /// access group, so a bundle of another team that names the same group sees none of them.
    public var team: String

    /// Creates a request; the host makes one for every service request an extension sends.
    /// - Parameters:
    ///   - method: The service method, for example `passLibrary.passes`.
    ///   - line: The raw request line, parameters included.
    ///   - extensionPoint: The extension point identifier of the extension that asked.
    ///   - role: Whether that extension is the UI one.
    ///   - bundleIdentifier: Its bundle identifier.
    ///   - containingAppBundleIdentifier: Its containing app's bundle identifier, when it has one.
    ///   - keychainAccessGroups: Its keychain access groups, the default group first.
    ///   - team: Its team; nil or empty means an unsigned bundle's
    ///     (``ExtensionDescriptor/unsignedTeam(bundleIdentifier:containingAppBundleIdentifier:)``).
    public init(method: String, line: Data, extensionPoint: String, role: ExtensionRole, bundleIdentifier: String,
                containingAppBundleIdentifier: String?, keychainAccessGroups: [String] = [], team: String? = nil) {
        self.method = method
        self.line = line
        self.extensionPoint = extensionPoint
        self.role = role
        self.bundleIdentifier = bundleIdentifier
        self.containingAppBundleIdentifier = containingAppBundleIdentifier
        self.keychainAccessGroups = keychainAccessGroups
        self.team = team.flatMap { $0.isEmpty ? nil : $0 }
            ?? ExtensionDescriptor.unsignedTeam(bundleIdentifier: bundleIdentifier, containingAppBundleIdentifier: containingAppBundleIdentifier)
    }

    /// The request's parameters decoded as `type`.
    /// - Throws: ``RPCErrorObject`` with ``RPCErrorCode/invalidParams`` naming the bad key.
    public func params<Params: Decodable>(_ type: Params.Type) throws -> Params {
        do {
            return try WireCodec().params(type, from: line)
        } catch {
            throw RPCErrorObject(code: error.code, message: error.reason)
        }
    }
}

/// Answers the requests extensions make of the host. The Wallet simulator implements it
/// with the simulated device and the user agent.
public protocol HostServiceProvider: Sendable {
    /// Returns the result to send back, or throws an ``RPCErrorObject`` to send an error.
    func respond(to request: ServiceRequest) async throws -> any Encodable & Sendable
}
