import Foundation
import WalletHostRuntime
import WalletWire

/// Answers extensions' host-service requests from the simulated device: the pass library,
/// watch pairing and the keychain for every extension; `ui.*` (UI point only) through a user agent, when one is set.
///
/// As on iOS, where an app sees only the secure-element passes associated with it, the pass
/// library answers each extension with its own issuer's passes: those its containing app added,
/// and only when the extension is of the team that added them (as App Groups and keychain items
/// belong to a team), so a bundle of another team naming the issuer's identifier sees none.
public struct DeviceServices: HostServiceProvider {
    public let device: SimulatedDevice
    public let userAgent: (any UserAgent)?

    public init(device: SimulatedDevice, userAgent: (any UserAgent)? = nil) {
        self.device = device
        self.userAgent = userAgent
    }

    public func respond(to request: ServiceRequest) async throws -> any Encodable & Sendable {
        switch request.method {
        case WireMethod.passLibraryPasses:
            let params = try request.params(PassLibraryPassesParams.self)
            guard params.passType == "secureElement" else { return [WireSecureElementPass]() }
            return try device.passes().filter { Self.belongs($0, to: request) }.map {
                WireSecureElementPass(primaryAccountIdentifier: $0.primaryAccountIdentifier,
                                      primaryAccountNumberSuffix: $0.primaryAccountNumberSuffix,
                                      deviceName: $0.deviceName, isRemotePass: $0.isRemotePass)
            }
        case WireMethod.watchIsPaired:
            _ = try request.params(NoParams.self)
            return try device.settings().watchPaired
        case let method where KeychainService.methods.contains(method):
            return try KeychainService(device: device).respond(to: request)
        case WireMethod.uiPrompt, WireMethod.uiBiometric:
            guard request.role == .ui else {
                throw RPCErrorObject(code: RPCErrorCode.methodNotFound,
                                     message: "\(request.method) is only available to the UI extension point")
            }
            guard let userAgent else {
                throw RPCErrorObject(code: RPCErrorCode.serviceFailed, message: "no user agent is attached to answer \(request.method)")
            }
            if request.method == WireMethod.uiPrompt {
                return try await userAgent.prompt(request.params(UIPromptParams.self))
            }
            return try await userAgent.biometric(request.params(UIBiometricParams.self))
        default:
            throw RPCErrorObject(code: RPCErrorCode.methodNotFound, message: "the host offers no service \(request.method)")
        }
    }

    /// Whether the extension that made the request may see the pass: it is of the pass's team
    /// (``PassRecord/owningTeam``, ``ServiceRequest/team``), and the pass's issuer is its
    /// containing app. An extension loaded on its own has no known app; iOS requires an
    /// extension's identifier to start with its app's and a dot, so that stands in for it.
    static func belongs(_ pass: PassRecord, to request: ServiceRequest) -> Bool {
        guard pass.owningTeam == request.team else { return false }
        if let app = request.containingAppBundleIdentifier {
            return pass.issuer == app
        }
        return request.bundleIdentifier.hasPrefix(pass.issuer + ".")
    }
}

/// The user: answers the UI extension's prompts and biometric requests.
public protocol UserAgent: Sendable {
    func prompt(_ prompt: UIPromptParams) async throws -> UIPromptResult
    func biometric(_ request: UIBiometricParams) async throws -> UIBiometricResult
}
