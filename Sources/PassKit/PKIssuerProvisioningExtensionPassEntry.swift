import Foundation
import UIKit
import WalletWire

/// A card Wallet lists for the user to add (`PKIssuerProvisioningExtensionPassEntry`).
///
/// Create ``PKIssuerProvisioningExtensionPaymentPassEntry`` values; this base class only
/// carries what every entry has. Entries are immutable.
open class PKIssuerProvisioningExtensionPassEntry: NSObject, @unchecked Sendable {
    // @unchecked: open like PassKit's class; every stored property is an immutable `let`.

    /// The issuer's identifier of the card, unique among the entries; Wallet passes it back
    /// to `generateAddPaymentPassRequestForPassEntryWithIdentifier`.
    public let identifier: String
    /// The card's name as Wallet shows it.
    public let title: String
    /// The card art: a PNG of 1536 x 969 pixels, under 4 MB, square corners.
    public let art: CGImage

    init(identifier: String, title: String, art: CGImage) {
        self.identifier = identifier
        self.title = title
        self.art = art
        super.init()
    }
}

/// A payment card Wallet lists for the user to add
/// (`PKIssuerProvisioningExtensionPaymentPassEntry`).
open class PKIssuerProvisioningExtensionPaymentPassEntry: PKIssuerProvisioningExtensionPassEntry, @unchecked Sendable {
    /// How Wallet sets up the add request for this card.
    public let addRequestConfiguration: PKAddPaymentPassRequestConfiguration

    /// An entry for one card.
    /// - Parameters:
    ///   - identifier: The issuer's identifier of the card (commonly the FPAN ID).
    ///   - title: The card's name as Wallet shows it.
    ///   - art: The card art.
    ///   - addRequestConfiguration: The add request's configuration.
    /// - Returns: `nil` when `identifier` is empty or only whitespace. An empty `title` is
    ///   accepted, as PassKit accepts it (Apple's own unit tests pass `""`); Wallet's entry check
    ///   in `wallet-host` still reports it, since Wallet would list a card without a name.
    public init?(identifier: String, title: String, art: CGImage,
                 addRequestConfiguration: PKAddPaymentPassRequestConfiguration) {
        guard !identifier.allSatisfy(\.isWhitespace) else { return nil }
        self.addRequestConfiguration = addRequestConfiguration
        super.init(identifier: identifier, title: title, art: art)
    }

    /// The entry as it travels in `passEntries` and `remotePassEntries` results.
    package var wireValue: WirePassEntry {
        WirePassEntry(identifier: identifier, title: title, art: WirePassArt(png: art.pngData),
                      addRequestConfiguration: addRequestConfiguration.wireValue)
    }
}
