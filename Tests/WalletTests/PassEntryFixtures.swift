import Foundation
import Wallet
import WalletTestSupport
import WalletWire

/// Pass entries for the validator tests: `validEntry` passes every rule; tests change one field.
enum PassEntryFixtures {
    static let art = TestPNG.walletArt

    static func validEntry(_ identifier: String = "card-4242", account: String? = "acct-4242",
                           scheme: String = "ECC_V2") -> WirePassEntry {
        WirePassEntry(identifier: identifier, title: "Example Debit", art: WirePassArt(png: art),
                      addRequestConfiguration: WireAddRequestConfiguration(
                          encryptionScheme: scheme, cardholderName: "Jane Appleseed", primaryAccountSuffix: "4242",
                          primaryAccountIdentifier: account, paymentNetwork: "Visa", style: "payment"))
    }

    static func changed(_ change: (inout WirePassEntry) -> Void) -> WirePassEntry {
        var entry = validEntry()
        change(&entry)
        return entry
    }

    static func pass(_ account: String, on device: DeviceKind) -> PassRecord {
        PassRecord(primaryAccountIdentifier: account, primaryAccountNumberSuffix: "4242", device: device,
                   issuer: "com.example.issuer")
    }
}
