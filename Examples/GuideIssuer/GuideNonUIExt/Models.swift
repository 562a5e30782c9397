// Models.swift
//
// What the issuer app caches about each card, and the issuer's server call.

import os
import PassKit

let log = Logger(subsystem: "com.example.guideissuer.WNonUIExt", category: "wallet")

/// A card as the issuer app stores it in the App Group defaults ("PaymentPassCredentials").
struct ProvisioningCredential: Equatable, Codable, Hashable {
    var primaryAccountIdentifier: String
    var label: String
    var assetName: String
    var cardholderName: String
    var localizedDescription: String
    var primaryAccountSuffix: String
    var expiration: String
}

/// The issuer server's answer to "encrypt this card for Wallet".
struct EncryptedPassDataResponse {
    var activationData: Data?
    var encryptedPassData: Data?
    var ephemeralPublicKey: Data?
    var wrappedKey: Data?
}

/// Stands in for the issuer's server: well-formed, fake key material.
enum PassResource {
    static func requestPaymentPassData(_ configuration: PKAddPaymentPassRequestConfiguration,
                                       certificateChain certificates: [Data], nonce: Data,
                                       nonceSignature: Data) -> EncryptedPassDataResponse {
        var response = EncryptedPassDataResponse()
        response.activationData = Data("activation-\(configuration.primaryAccountIdentifier ?? "")".utf8)
        response.encryptedPassData = nonce + nonceSignature
        if configuration.encryptionScheme == .ECC_V2 {
            response.ephemeralPublicKey = Data([0x04] + [UInt8](repeating: 0x2A, count: 64))
        } else if configuration.encryptionScheme == .RSA_V2 {
            response.wrappedKey = Data(repeating: 0x5A, count: 256)
        }
        return response
    }
}
