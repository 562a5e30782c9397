/// SampleIssuerApp: the sample issuer's containing app, reduced to what Wallet needs from it.
///
/// Running it "logs the user in": it caches the user's cards in the App Group defaults
/// (`PaymentPassCredentials`, JSON) and asks Wallet to authenticate before adding cards
/// (`ShouldRequireAuthenticationForAppleWallet` = true), prints what it wrote and exits 0.
///
///     SampleIssuerApp                       # container from WALLET_EXTENSION_APP_GROUPS
///     SampleIssuerApp --app-group-dir DIR   # DIR is the container of group.com.example.sampleissuer
import FoundationEssentials
import WalletExtensionKit
#if canImport(Glibc)
import Glibc
#endif

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

func usage() -> Never {
    print("usage: SampleIssuerApp [--app-group-dir DIR]")
    print("  Logs in: writes the sample cards into the App Group \(appGroupID).")
    print("  Without --app-group-dir the container comes from WALLET_EXTENSION_APP_GROUPS (a JSON object).")
    exit(2)
}

func sharedDefaults(arguments: [String]) -> SharedDefaults {
    switch arguments.count {
    case 0:
        guard let defaults = SharedDefaults(suiteName: appGroupID) else {
            print("SampleIssuerApp: no container for \(appGroupID): set WALLET_EXTENSION_APP_GROUPS or pass --app-group-dir DIR")
            exit(2)
        }
        return defaults
    case 2 where arguments[0] == "--app-group-dir":
        return SharedDefaults(suiteName: appGroupID, containerURL: URL(filePath: arguments[1], directoryHint: .isDirectory))
    default:
        usage()
    }
}

let defaults = sharedDefaults(arguments: Array(CommandLine.arguments.dropFirst()))
let credentials = Dictionary(uniqueKeysWithValues: sampleCards.map { ($0.primaryAccountIdentifier, $0) })
let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
defaults.set(try encoder.encode(credentials), forKey: SharedDefaultsKey.paymentPassCredentials)
defaults.set(true, forKey: SharedDefaultsKey.requiresAuthentication)

guard defaults.data(forKey: SharedDefaultsKey.paymentPassCredentials) != nil else {
    print("SampleIssuerApp: could not write \(defaults.fileURL.path(percentEncoded: false)) (see stderr)")
    exit(1)
}
print("SampleIssuerApp: logged in as John Appleseed; wrote \(defaults.fileURL.path(percentEncoded: false))")
print("  \(SharedDefaultsKey.paymentPassCredentials): \(sampleCards.count) cards")
for card in sampleCards {
    print("    \(card.primaryAccountIdentifier)  \(card.label)  \(card.paymentNetwork) ..\(card.primaryAccountSuffix)  \(card.encryptionScheme)")
}
print("  \(SharedDefaultsKey.requiresAuthentication): \(defaults.bool(forKey: SharedDefaultsKey.requiresAuthentication))")
