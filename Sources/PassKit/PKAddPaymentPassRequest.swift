import Foundation
import Synchronization
import WalletWire

/// The encrypted card data Wallet sends to the payment network (`PKAddPaymentPassRequest`).
///
/// Set ``encryptedPassData`` and ``activationData``, plus ``ephemeralPublicKey`` (ECC_V2:
/// an uncompressed point, 65 bytes starting `0x04`) or ``wrappedKey`` (RSA_V2).
open class PKAddPaymentPassRequest: NSObject, @unchecked Sendable {
    // @unchecked: open like PassKit's class; its own state is behind the lock.
    private struct Fields {
        var activationData: Data?
        var encryptedPassData: Data?
        var ephemeralPublicKey: Data?
        var wrappedKey: Data?
    }

    private let fields = Mutex(Fields())

    /// An empty request.
    public override init() {}

    /// The one-time activation data for the payment network.
    open var activationData: Data? {
        get { fields.withLock { $0.activationData } }
        set { fields.withLock { $0.activationData = newValue } }
    }

    /// The card data, encrypted for the leaf certificate's key.
    open var encryptedPassData: Data? {
        get { fields.withLock { $0.encryptedPassData } }
        set { fields.withLock { $0.encryptedPassData = newValue } }
    }

    /// ECC_V2: the ephemeral public key, uncompressed.
    open var ephemeralPublicKey: Data? {
        get { fields.withLock { $0.ephemeralPublicKey } }
        set { fields.withLock { $0.ephemeralPublicKey = newValue } }
    }

    /// RSA_V2: the AES key wrapped with the leaf certificate's RSA key.
    open var wrappedKey: Data? {
        get { fields.withLock { $0.wrappedKey } }
        set { fields.withLock { $0.wrappedKey = newValue } }
    }

    /// The request as it travels in the `generateAddPaymentPassRequest` result.
    package var wireValue: AddPaymentPassRequestResult {
        fields.withLock { fields in
            AddPaymentPassRequestResult(activationData: fields.activationData, encryptedPassData: fields.encryptedPassData,
                                        ephemeralPublicKey: fields.ephemeralPublicKey, wrappedKey: fields.wrappedKey)
        }
    }
}
