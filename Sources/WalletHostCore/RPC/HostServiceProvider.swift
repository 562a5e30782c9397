import Foundation
import WalletWire

/// A request an extension made of the host (`passLibrary.passes`, `watch.isPaired`, `ui.*`).
public struct ServiceRequest: Sendable {
    public var method: String
    /// The raw request line; decode parameters with ``params(_:)``.
    public var line: Data
    public var extensionPoint: String
    public var role: ExtensionRole
    public var bundleIdentifier: String

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
