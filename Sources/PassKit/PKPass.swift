import Foundation
import WalletWire

/// Kinds of passes in the pass library (`PKPassType`).
public enum PKPassType: UInt, Sendable, Hashable {
    /// Boarding passes, tickets and other barcode passes.
    case barcode = 0
    /// Payment and access cards stored in a secure element.
    case secureElement = 1
    /// Every kind.
    case any = 18446744073709551615 // UInt.max, as in PassKit

    /// The pre-iOS 13.4 name of ``secureElement``.
    @available(*, deprecated, renamed: "secureElement")
    public static var payment: PKPassType { .secureElement }
}

/// A pass in the user's pass library (`PKPass`).
///
/// The library hands out ``PKSecureElementPass`` instances. The class is open and its
/// properties are overridable, so that unit tests can subclass it as they do with PassKit:
///
/// ```swift
/// class MockPKPass: PKPass {
///     override var isRemotePass: Bool { true }
///     override var deviceName: String { "Apple Watch" }
/// }
/// ```
///
/// Passes compare with `isEqual` (and `==`) as NSObjects do; secure-element passes from the
/// library are equal when they hold the same account on the same device.
open class PKPass: NSObject {
    private let storedDeviceName: String
    private let storedIsRemotePass: Bool

    /// An empty pass (for subclasses): on this iPhone, of kind ``PKPassType/barcode``.
    public override init() {
        storedDeviceName = "iPhone"
        storedIsRemotePass = false
    }

    init(deviceName: String, isRemotePass: Bool) {
        storedDeviceName = deviceName
        storedIsRemotePass = isRemotePass
    }

    /// The kind of pass.
    open var passType: PKPassType { .barcode }

    /// The name of the device holding the pass, e.g. `iPhone` or `Apple Watch`.
    open var deviceName: String { storedDeviceName }

    /// True for a pass on a paired device (the Apple Watch) rather than this iPhone.
    open var isRemotePass: Bool { storedIsRemotePass }

    /// The pass as a secure-element pass, or nil for other kinds.
    open var secureElementPass: PKSecureElementPass? { self as? PKSecureElementPass }

    /// The pre-iOS 13.4 name of ``secureElementPass``.
    @available(*, deprecated, renamed: "secureElementPass")
    open var paymentPass: PKPaymentPass? { secureElementPass }
}

/// A payment or access card in a secure element (`PKSecureElementPass`).
open class PKSecureElementPass: PKPass {
    /// Where a card is in its activation (`PKSecureElementPass.PassActivationState`).
    public enum PassActivationState: Int, Sendable, Hashable {
        case activated = 0
        case requiresActivation = 1
        case activating = 2
        case suspended = 3
        case deactivated = 4
    }

    private let storedPrimaryAccountIdentifier: String
    private let storedPrimaryAccountNumberSuffix: String

    /// An empty secure-element pass (for subclasses): no account, on this iPhone, activated.
    public override init() {
        storedPrimaryAccountIdentifier = ""
        storedPrimaryAccountNumberSuffix = ""
        super.init()
    }

    /// A pass as the host's `passLibrary.passes` service reports it.
    init(wireValue: WireSecureElementPass) {
        storedPrimaryAccountIdentifier = wireValue.primaryAccountIdentifier
        storedPrimaryAccountNumberSuffix = wireValue.primaryAccountNumberSuffix
        super.init(deviceName: wireValue.deviceName, isRemotePass: wireValue.isRemotePass)
    }

    open override var passType: PKPassType { .secureElement }

    /// The account identifier the card was added with (the FPAN ID).
    open var primaryAccountIdentifier: String { storedPrimaryAccountIdentifier }

    /// The last digits of the card number.
    open var primaryAccountNumberSuffix: String { storedPrimaryAccountNumberSuffix }

    /// The device account of the card: on the simulated device, the primary account's.
    open var deviceAccountIdentifier: String { storedPrimaryAccountIdentifier }

    /// The last digits of the device account number: on the simulated device, the card's.
    open var deviceAccountNumberSuffix: String { storedPrimaryAccountNumberSuffix }

    /// The card's activation state: cards the simulated device adds are activated.
    open var passActivationState: PassActivationState { .activated }

    /// Equal to another secure-element pass with the same account on the same device.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? PKSecureElementPass else { return false }
        if other === self { return true }
        return other.primaryAccountIdentifier == primaryAccountIdentifier
            && other.isRemotePass == isRemotePass && other.deviceName == deviceName
    }

    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(primaryAccountIdentifier)
        hasher.combine(isRemotePass)
        hasher.combine(deviceName)
        return hasher.finalize()
    }
}

/// The pre-iOS 13.4 name of ``PKSecureElementPass``.
@available(*, deprecated, renamed: "PKSecureElementPass")
public typealias PKPaymentPass = PKSecureElementPass
