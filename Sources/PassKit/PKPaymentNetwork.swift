import Foundation

/// A payment network, spelled as PassKit spells it (`PKPaymentNetwork`): the raw values are
/// PassKit's, so `PKPaymentNetwork.masterCard.rawValue == "MasterCard"` on both platforms.
public struct PKPaymentNetwork: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public static let amex = PKPaymentNetwork("AmEx")
    public static let bancomat = PKPaymentNetwork("Bancomat")
    public static let bancontact = PKPaymentNetwork("Bancontact")
    public static let barcode = PKPaymentNetwork("Barcode")
    public static let cartesBancaires = PKPaymentNetwork("CartesBancaires")
    public static let chinaUnionPay = PKPaymentNetwork("ChinaUnionPay")
    public static let dankort = PKPaymentNetwork("Dankort")
    public static let discover = PKPaymentNetwork("Discover")
    public static let eftpos = PKPaymentNetwork("Eftpos")
    public static let electron = PKPaymentNetwork("Electron")
    public static let elo = PKPaymentNetwork("Elo")
    public static let girocard = PKPaymentNetwork("Girocard")
    public static let idCredit = PKPaymentNetwork("iD")
    public static let interac = PKPaymentNetwork("Interac")
    public static let JCB = PKPaymentNetwork("JCB")
    public static let mada = PKPaymentNetwork("mada")
    public static let maestro = PKPaymentNetwork("Maestro")
    public static let masterCard = PKPaymentNetwork("MasterCard")
    public static let mir = PKPaymentNetwork("Mir")
    public static let nanaco = PKPaymentNetwork("Nanaco")
    public static let postFinance = PKPaymentNetwork("PostFinance")
    public static let privateLabel = PKPaymentNetwork("PrivateLabel")
    public static let quicPay = PKPaymentNetwork("QUICPay")
    public static let suica = PKPaymentNetwork("Suica")
    public static let visa = PKPaymentNetwork("Visa")
    public static let vPay = PKPaymentNetwork("VPay")
    public static let waon = PKPaymentNetwork("WAON")
}

/// How the card data of an add-payment-pass request is encrypted (`PKEncryptionScheme`).
public struct PKEncryptionScheme: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Elliptic-curve encryption; the request carries an `ephemeralPublicKey`.
    public static let ECC_V2 = PKEncryptionScheme(rawValue: "ECC_V2")
    /// RSA encryption; the request carries a `wrappedKey`.
    public static let RSA_V2 = PKEncryptionScheme(rawValue: "RSA_V2")
}

/// The kind of pass an add request is for (`PKAddPaymentPassStyle`).
public enum PKAddPaymentPassStyle: Int, Sendable, Hashable {
    case payment = 0
    case access = 1

    /// The spelling on the wire.
    var wireValue: String {
        switch self {
        case .payment: return "payment"
        case .access: return "access"
        }
    }

    init(wireValue: String) {
        self = wireValue == "access" ? .access : .payment
    }
}

/// A label and a value shown with a card's details (`PKLabeledValue`), for example
/// `PKLabeledValue(label: "expiration", value: "11/28")`.
open class PKLabeledValue: NSObject, @unchecked Sendable {
    // @unchecked: open like PassKit's class; both stored properties are immutable.
    /// What the value is, e.g. `expiration`.
    public let label: String
    /// The value, e.g. `11/28`.
    public let value: String

    public init(label: String, value: String) {
        self.label = label
        self.value = value
    }
}
