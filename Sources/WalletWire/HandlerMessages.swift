import FoundationEssentials

/// The result of `status`.
public struct StatusResult: Codable, Sendable, Hashable {
    /// Entries can be added to this iPhone.
    public var passEntriesAvailable: Bool
    /// Entries can be added to the paired Apple Watch.
    public var remotePassEntriesAvailable: Bool
    /// Wallet must run the UI extension's `authorize` before asking for entries.
    public var requiresAuthentication: Bool

    public init(passEntriesAvailable: Bool, remotePassEntriesAvailable: Bool, requiresAuthentication: Bool) {
        self.passEntriesAvailable = passEntriesAvailable
        self.remotePassEntriesAvailable = remotePassEntriesAvailable
        self.requiresAuthentication = requiresAuthentication
    }
}

/// A labeled value shown on a card's details (`PKLabeledValue`).
public struct WireLabeledValue: Codable, Sendable, Hashable {
    public var label: String
    public var value: String

    public init(label: String, value: String) {
        self.label = label
        self.value = value
    }
}

/// The configuration of an add-payment-pass request (`PKAddPaymentPassRequestConfiguration`).
public struct WireAddRequestConfiguration: Codable, Sendable, Hashable {
    /// `ECC_V2` or `RSA_V2`.
    public var encryptionScheme: String
    public var cardholderName: String?
    public var primaryAccountSuffix: String?
    public var primaryAccountIdentifier: String?
    /// For example `Visa`, `MasterCard`, `AmEx`.
    public var paymentNetwork: String?
    public var localizedDescription: String?
    /// `payment` or `access`.
    public var style: String
    public var cardDetails: [WireLabeledValue]
    public var productIdentifiers: [String]
    public var requiresFelicaSecureElement: Bool

    public init(encryptionScheme: String, cardholderName: String? = nil, primaryAccountSuffix: String? = nil,
                primaryAccountIdentifier: String? = nil, paymentNetwork: String? = nil,
                localizedDescription: String? = nil, style: String = "payment", cardDetails: [WireLabeledValue] = [],
                productIdentifiers: [String] = [], requiresFelicaSecureElement: Bool = false) {
        self.encryptionScheme = encryptionScheme
        self.cardholderName = cardholderName
        self.primaryAccountSuffix = primaryAccountSuffix
        self.primaryAccountIdentifier = primaryAccountIdentifier
        self.paymentNetwork = paymentNetwork
        self.localizedDescription = localizedDescription
        self.style = style
        self.cardDetails = cardDetails
        self.productIdentifiers = productIdentifiers
        self.requiresFelicaSecureElement = requiresFelicaSecureElement
    }
}

/// Card art: PNG bytes, base64 on the wire.
public struct WirePassArt: Codable, Sendable, Hashable {
    public var png: Data

    public init(png: Data) {
        self.png = png
    }
}

/// One card the extension offers to add (`PKIssuerProvisioningExtensionPaymentPassEntry`).
public struct WirePassEntry: Codable, Sendable, Hashable {
    public var identifier: String
    public var title: String
    public var art: WirePassArt
    public var addRequestConfiguration: WireAddRequestConfiguration

    public init(identifier: String, title: String, art: WirePassArt, addRequestConfiguration: WireAddRequestConfiguration) {
        self.identifier = identifier
        self.title = title
        self.art = art
        self.addRequestConfiguration = addRequestConfiguration
    }
}

/// The result of `passEntries` and `remotePassEntries`.
public struct PassEntriesResult: Codable, Sendable, Hashable {
    public var entries: [WirePassEntry]

    public init(entries: [WirePassEntry]) {
        self.entries = entries
    }
}

/// Parameters of `generateAddPaymentPassRequest`.
public struct GenerateAddPaymentPassRequestParams: Codable, Sendable, Hashable {
    /// The identifier of the chosen pass entry.
    public var identifier: String
    public var configuration: WireAddRequestConfiguration
    /// DER certificates, leaf first (base64 on the wire).
    public var certificateChain: [Data]
    public var nonce: Data
    public var nonceSignature: Data

    public init(identifier: String, configuration: WireAddRequestConfiguration, certificateChain: [Data],
                nonce: Data, nonceSignature: Data) {
        self.identifier = identifier
        self.configuration = configuration
        self.certificateChain = certificateChain
        self.nonce = nonce
        self.nonceSignature = nonceSignature
    }
}

/// The result of `generateAddPaymentPassRequest` (`PKAddPaymentPassRequest`); the whole
/// result is `null` when the handler completed with nil.
public struct AddPaymentPassRequestResult: Codable, Sendable, Hashable {
    public var activationData: Data?
    public var encryptedPassData: Data?
    public var ephemeralPublicKey: Data?
    public var wrappedKey: Data?

    public init(activationData: Data? = nil, encryptedPassData: Data? = nil, ephemeralPublicKey: Data? = nil,
                wrappedKey: Data? = nil) {
        self.activationData = activationData
        self.encryptedPassData = encryptedPassData
        self.ephemeralPublicKey = ephemeralPublicKey
        self.wrappedKey = wrappedKey
    }
}

/// The result of `authorize` on the UI extension point.
public struct AuthorizeResult: Codable, Sendable, Hashable {
    /// `authorized` or `canceled`.
    public var result: String

    public static let authorized = "authorized"
    public static let canceled = "canceled"

    public init(result: String) {
        self.result = result
    }
}
