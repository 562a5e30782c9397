import Foundation

// Shared by the containing app (SampleIssuerApp) and the non-UI extension (WNonUIExt):
// each target's directory holds a symbolic link to this file, as an Xcode project would
// add one file to two targets.

/// The App Group the sample issuer app and its extensions share.
let appGroupID = "group.com.example.sampleissuer"

/// Keys of the App Group defaults (`UserDefaults(suiteName: appGroupID)`).
enum SharedDefaultsKey {
    /// JSON-encoded `[primaryAccountIdentifier: ProvisioningCredential]`, written by the app
    /// when the user logs in.
    static let paymentPassCredentials = "PaymentPassCredentials"
    /// Bool: Wallet must run the UI extension's login before listing cards.
    static let requiresAuthentication = "ShouldRequireAuthenticationForAppleWallet"
}

/// What the issuer app knows about one of the user's cards; not a PassKit type. The app
/// stores these in the App Group, the non-UI extension turns them into pass entries.
struct ProvisioningCredential: Codable, Hashable, Sendable {
    /// The card's FPAN ID, which also identifies its pass entry.
    var primaryAccountIdentifier: String
    /// The last four digits of the card number.
    var primaryAccountSuffix: String
    var cardholderName: String
    /// A `PKPaymentNetwork` raw value, e.g. "Visa".
    var paymentNetwork: String
    /// The expiration date as shown on the card, e.g. "11/28".
    var expiration: String
    /// `ECC_V2` or `RSA_V2`: how the issuer's backend encrypts the card for Wallet.
    var encryptionScheme: String
    /// The card's name as Wallet lists it.
    var label: String
    var localizedDescription: String
    /// The card art file in WNonUIExt.appex, without `.png`.
    var assetName: String
}
