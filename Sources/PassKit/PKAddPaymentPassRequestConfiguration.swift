import Foundation
import Synchronization
import WalletWire

/// What Wallet needs to set up the add-card flow for one card
/// (`PKAddPaymentPassRequestConfiguration`).
///
/// Mutable like PassKit's class; every property is guarded by a lock so the object may be
/// passed between threads.
open class PKAddPaymentPassRequestConfiguration: NSObject, @unchecked Sendable {
    // @unchecked: open like PassKit's class; its own state is behind the lock.
    private struct Fields {
        var encryptionScheme: PKEncryptionScheme
        var style: PKAddPaymentPassStyle = .payment
        var cardholderName: String?
        var primaryAccountSuffix: String?
        var cardDetails: [PKLabeledValue] = []
        var localizedDescription: String?
        var primaryAccountIdentifier: String?
        var paymentNetwork: PKPaymentNetwork?
        var productIdentifiers: Set<String> = []
        var requiresFelicaSecureElement = false
    }

    private let fields: Mutex<Fields>

    /// A configuration for `encryptionScheme`.
    /// - Returns: `nil` for a scheme other than ``PKEncryptionScheme/ECC_V2`` and
    ///   ``PKEncryptionScheme/RSA_V2``, as PassKit does for schemes it does not support.
    public init?(encryptionScheme: PKEncryptionScheme) {
        guard encryptionScheme == .ECC_V2 || encryptionScheme == .RSA_V2 else { return nil }
        fields = Mutex(Fields(encryptionScheme: encryptionScheme))
    }

    private init(fields: Fields) {
        self.fields = Mutex(fields)
    }

    /// The encryption scheme the request's data uses.
    open var encryptionScheme: PKEncryptionScheme { fields.withLock { $0.encryptionScheme } }

    /// Payment or access card.
    open var style: PKAddPaymentPassStyle {
        get { fields.withLock { $0.style } }
        set { fields.withLock { $0.style = newValue } }
    }

    /// The cardholder's name; Wallet needs it or ``primaryAccountSuffix``.
    open var cardholderName: String? {
        get { fields.withLock { $0.cardholderName } }
        set { fields.withLock { $0.cardholderName = newValue } }
    }

    /// The last digits of the card number.
    open var primaryAccountSuffix: String? {
        get { fields.withLock { $0.primaryAccountSuffix } }
        set { fields.withLock { $0.primaryAccountSuffix = newValue } }
    }

    /// Labeled values shown with the card, e.g. the expiration date.
    open var cardDetails: [PKLabeledValue] {
        get { fields.withLock { $0.cardDetails } }
        set { fields.withLock { $0.cardDetails = newValue } }
    }

    /// A description of the card shown to the user.
    open var localizedDescription: String? {
        get { fields.withLock { $0.localizedDescription } }
        set { fields.withLock { $0.localizedDescription = newValue } }
    }

    /// The issuer's identifier of the account (FPAN ID).
    open var primaryAccountIdentifier: String? {
        get { fields.withLock { $0.primaryAccountIdentifier } }
        set { fields.withLock { $0.primaryAccountIdentifier = newValue } }
    }

    /// The card's payment network.
    open var paymentNetwork: PKPaymentNetwork? {
        get { fields.withLock { $0.paymentNetwork } }
        set { fields.withLock { $0.paymentNetwork = newValue } }
    }

    /// Product identifiers that restrict which card products this request may add.
    open var productIdentifiers: Set<String> {
        get { fields.withLock { $0.productIdentifiers } }
        set { fields.withLock { $0.productIdentifiers = newValue } }
    }

    /// The card needs a FeliCa secure element.
    open var requiresFelicaSecureElement: Bool {
        get { fields.withLock { $0.requiresFelicaSecureElement } }
        set { fields.withLock { $0.requiresFelicaSecureElement = newValue } }
    }
}

// MARK: - Wire form

extension PKAddPaymentPassRequestConfiguration {
    /// The configuration as it travels in pass entries and in `generateAddPaymentPassRequest`.
    package var wireValue: WireAddRequestConfiguration {
        fields.withLock { fields in
            WireAddRequestConfiguration(
                encryptionScheme: fields.encryptionScheme.rawValue,
                cardholderName: fields.cardholderName,
                primaryAccountSuffix: fields.primaryAccountSuffix,
                primaryAccountIdentifier: fields.primaryAccountIdentifier,
                paymentNetwork: fields.paymentNetwork?.rawValue,
                localizedDescription: fields.localizedDescription,
                style: fields.style.wireValue,
                cardDetails: fields.cardDetails.map { WireLabeledValue(label: $0.label, value: $0.value) },
                productIdentifiers: fields.productIdentifiers.sorted(),
                requiresFelicaSecureElement: fields.requiresFelicaSecureElement)
        }
    }

    /// The configuration the host sent back; any scheme is kept as it came.
    package convenience init(wireValue: WireAddRequestConfiguration) {
        var fields = Fields(encryptionScheme: PKEncryptionScheme(rawValue: wireValue.encryptionScheme))
        fields.style = PKAddPaymentPassStyle(wireValue: wireValue.style)
        fields.cardholderName = wireValue.cardholderName
        fields.primaryAccountSuffix = wireValue.primaryAccountSuffix
        fields.cardDetails = wireValue.cardDetails.map { PKLabeledValue(label: $0.label, value: $0.value) }
        fields.localizedDescription = wireValue.localizedDescription
        fields.primaryAccountIdentifier = wireValue.primaryAccountIdentifier
        fields.paymentNetwork = wireValue.paymentNetwork.map(PKPaymentNetwork.init(rawValue:))
        fields.productIdentifiers = Set(wireValue.productIdentifiers)
        fields.requiresFelicaSecureElement = wireValue.requiresFelicaSecureElement
        self.init(fields: fields)
    }
}
