/// SampleIssuerApp: the sample issuer's containing app, reduced to what Wallet needs from it.
///
/// Running it "logs the user in": it caches the user's cards in the App Group defaults
/// (`PaymentPassCredentials`, JSON) and asks Wallet to authenticate before adding cards
/// (`ShouldRequireAuthenticationForAppleWallet` = true), prints what it wrote and exits 0.
///
///     SampleIssuerApp     # run by `wallet-host app open`, which sets up its App Group container
///
/// Plain iOS code: `UserDefaults(suiteName:)` of the App Group writes
/// `<container>/Library/Preferences/group.com.example.sampleissuer.plist`, the file the
/// extension reads.
import Foundation
import PassKit

/// The user's cards, as the issuer's backend would return them at login.
let sampleCards: [ProvisioningCredential] = [
    ProvisioningCredential(
        primaryAccountIdentifier: "FPANID-SAMPLE-VISA-4242", primaryAccountSuffix: "4242",
        cardholderName: "John Appleseed", paymentNetwork: PKPaymentNetwork.visa.rawValue, expiration: "11/28",
        encryptionScheme: PKEncryptionScheme.ECC_V2.rawValue, label: "Sample Visa Signature",
        localizedDescription: "Sample Issuer Visa Signature credit card", assetName: "card-ocean"),
    ProvisioningCredential(
        primaryAccountIdentifier: "FPANID-SAMPLE-MC-5454", primaryAccountSuffix: "5454",
        cardholderName: "John Appleseed", paymentNetwork: PKPaymentNetwork.masterCard.rawValue, expiration: "04/29",
        encryptionScheme: PKEncryptionScheme.ECC_V2.rawValue, label: "Sample World Mastercard",
        localizedDescription: "Sample Issuer World Mastercard debit card", assetName: "card-graphite"),
    ProvisioningCredential(
        primaryAccountIdentifier: "FPANID-SAMPLE-AMEX-1005", primaryAccountSuffix: "1005",
        cardholderName: "John Appleseed", paymentNetwork: PKPaymentNetwork.amex.rawValue, expiration: "09/27",
        encryptionScheme: PKEncryptionScheme.RSA_V2.rawValue, label: "Sample Green Card",
        localizedDescription: "Sample Issuer American Express Green card", assetName: "card-forest"),
]

guard CommandLine.arguments.count == 1 else {
    print("usage: SampleIssuerApp")
    print("  Logs in: writes the sample cards into the App Group \(appGroupID) (run it with wallet-host app open).")
    exit(2)
}
guard let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroupID),
      let defaults = UserDefaults(suiteName: appGroupID) else {
    print("SampleIssuerApp: no container for \(appGroupID); run the app with wallet-host app open")
    exit(2)
}
let defaultsFile = container.appendingPathComponent("Library/Preferences/\(appGroupID).plist").path
let credentials = Dictionary(uniqueKeysWithValues: sampleCards.map { ($0.primaryAccountIdentifier, $0) })
let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
defaults.set(try encoder.encode(credentials), forKey: SharedDefaultsKey.paymentPassCredentials)
defaults.set(true, forKey: SharedDefaultsKey.requiresAuthentication)

guard defaults.synchronize(), FileManager.default.fileExists(atPath: defaultsFile) else {
    print("SampleIssuerApp: could not write \(defaultsFile)")
    exit(1)
}
print("SampleIssuerApp: logged in as John Appleseed; wrote \(defaultsFile)")
print("  \(SharedDefaultsKey.paymentPassCredentials): \(sampleCards.count) cards")
for card in sampleCards {
    print("    \(card.primaryAccountIdentifier)  \(card.label)  \(card.paymentNetwork) ..\(card.primaryAccountSuffix)  \(card.encryptionScheme)")
}
print("  \(SharedDefaultsKey.requiresAuthentication): \(defaults.bool(forKey: SharedDefaultsKey.requiresAuthentication))")
