import Foundation
import WalletHostRuntime
import WalletWire

/// `call APPEX generateAddPaymentPassRequest` (in process or through the daemon): params
/// completed with a fresh chain, nonce and signature from the device's PKI when they have no
/// `certificateChain`, and the request that comes back decrypted and checked as add-card does
/// (docs/PROVISIONING.md).
public struct ProvisioningCall: Sendable {
    /// The params the call sends.
    public let params: JSONValue
    let pki: DevicePKI

    /// - Throws: `RPCErrorObject` (invalid params) when the params are not an object; the PKI's error when the
    ///   device's keys cannot be read or made.
    public init(params given: JSONValue, state: StateDirectory) throws {
        guard case .object(var object) = given else {
            throw RPCErrorObject(code: RPCErrorCode.invalidParams, message: "--params must be a JSON object")
        }
        var scheme = "ECC_V2"
        if case .object(let configuration)? = object["configuration"], case .string(let named)? = configuration["encryptionScheme"],
           DevicePKI.schemes.contains(named) {
            scheme = named
        }
        pki = try DevicePKI.load(from: state, scheme: scheme)
        if object["certificateChain"] == nil {
            let material = try ProvisioningMaterial(issuedBy: pki, scheme: scheme)
            object["certificateChain"] = .array(material.certificateChain.map { .string($0.base64EncodedString()) })
            object["nonce"] = .string(material.nonce.base64EncodedString())
            object["nonceSignature"] = .string(material.nonceSignature.base64EncodedString())
        }
        params = .object(object)
    }

    /// What the host makes of the call's request; nil when the call failed or the params or the
    /// result are not of the documented shape.
    public func verify(_ outcome: CallOutcome<any Encodable & Sendable>) -> PassDataVerification? {
        guard case .success(let value) = outcome.result,
              let request = try? JSONValue(encoding: value).decoded(as: AddPaymentPassRequestResult.self),
              let decodedParams = try? params.decoded(as: GenerateAddPaymentPassRequestParams.self) else { return nil }
        return PassDataVerifier.verify(request, params: decodedParams, pki: pki)
    }
}
