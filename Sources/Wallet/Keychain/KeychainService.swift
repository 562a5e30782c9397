import Foundation
import WalletHostRuntime
import WalletWire

/// Answers the `keychain.*` host services from the simulated device's keychain, as the bundle
/// that asked sees it: its ``ServiceRequest/team``'s items in its ``ServiceRequest/keychainAccessGroups``.
struct KeychainService: Sendable {
    let device: SimulatedDevice

    /// The methods it answers.
    static let methods: Set<String> = [
        WireMethod.keychainAdd, WireMethod.keychainCopyMatching, WireMethod.keychainUpdate, WireMethod.keychainDelete,
    ]

    /// - Throws: ``RPCErrorObject`` (invalid params) for params of the wrong shape, and
    ///   ``StateError`` naming the team's keychain file (or an older host's `keychain.json`) when it cannot be read or written.
    func respond(to request: ServiceRequest) throws -> KeychainResult {
        let access = try device.keychainAccess(team: request.team, groups: request.keychainAccessGroups)
        switch request.method {
        case WireMethod.keychainAdd:
            let params = try request.params(KeychainAddParams.self)
            return try device.changeKeychain(for: access) { $0.add(params, access: access) }
        case WireMethod.keychainCopyMatching:
            let params = try request.params(KeychainCopyMatchingParams.self)
            return try device.readKeychain(for: access) { $0.copyMatching(params, access: access) }
        case WireMethod.keychainUpdate:
            let params = try request.params(KeychainUpdateParams.self)
            return try device.changeKeychain(for: access) { $0.update(params, access: access) }
        case WireMethod.keychainDelete:
            let params = try request.params(KeychainDeleteParams.self)
            return try device.changeKeychain(for: access) { $0.delete(params, access: access) }
        default:
            throw RPCErrorObject(code: RPCErrorCode.methodNotFound, message: "the keychain offers no service \(request.method)")
        }
    }
}
