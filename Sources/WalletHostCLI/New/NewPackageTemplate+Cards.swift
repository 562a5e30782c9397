import Foundation

extension NewPackageTemplate {
    var cardsMain: String {
        """
        // The one file an iOS extension does not have: it names the principal class
        // (NSExtensionPrincipalClass in Bundles/\(names.appBundle)/PlugIns/\(names.cardsTarget).appex/Info.plist).
        import WalletExtensionKit

        WalletExtension.main { \(names.cardsHandler)() }

        """
    }

    var cardsHandler: String {
        """
        import os
        import PassKit

        let log = Logger(subsystem: Bundle.main.bundleIdentifier ?? \(literal(names.cardsTarget)), category: "provisioning")

        /// \(names.name)'s non-UI extension, as on iOS: Wallet asks it whether there are cards to add, for the
        /// cards (for the iPhone and for a paired Apple Watch) and for the add request of the card the user
        /// picks. The cards come from the App Group, where the app wrote them after sign-in; the pass
        /// library says which each device already has; the bank's server encrypts the card.
        final class \(names.cardsHandler): PKIssuerProvisioningExtensionHandler {
            let passLibrary: PKPassLibrary
            let defaults: UserDefaults
            let watch: any WatchPairing
            let server: BankServer?

            init(passLibrary: PKPassLibrary = PKPassLibrary(), defaults: UserDefaults? = UserDefaults(suiteName: appGroup),
                 watch: any WatchPairing = PairedWatch(), server: BankServer? = .fromInfoPlist) {
                self.passLibrary = passLibrary
                self.defaults = defaults ?? .standard
                self.watch = watch
                self.server = server
            }

            override func status() async -> PKIssuerProvisioningExtensionStatus {
                let status = PKIssuerProvisioningExtensionStatus()
                status.requiresAuthentication = defaults.bool(forKey: SharedDefaultsKey.requiresAuthentication)
                status.passEntriesAvailable = !cards(notIn: accounts(onWatch: false)).isEmpty
                status.remotePassEntriesAvailable = watch.isPaired && !cards(notIn: accounts(onWatch: true)).isEmpty
                return status
            }

            override func passEntries() async -> [PKIssuerProvisioningExtensionPassEntry] {
                cards(notIn: accounts(onWatch: false)).compactMap(entry)
            }

            override func remotePassEntries() async -> [PKIssuerProvisioningExtensionPassEntry] {
                cards(notIn: accounts(onWatch: true)).compactMap(entry)
            }

            override func generateAddPaymentPassRequestForPassEntryWithIdentifier(
                _ identifier: String, configuration: PKAddPaymentPassRequestConfiguration,
                certificateChain certificates: [Data], nonce: Data, nonceSignature: Data
            ) async -> PKAddPaymentPassRequest? {
                guard let card = storedCards().first(where: { $0.identifier == identifier }) else {
                    log.error("no card \\(identifier, privacy: .public); not adding it")
                    return nil
                }
                guard let server else {
                    log.error("no DevelopmentBackendURL in Info.plist: no server to encrypt the card")
                    return nil
                }
                do {
                    return try await server.addRequest(for: card, certificateChain: certificates, nonce: nonce, nonceSignature: nonceSignature)
                } catch {
                    log.error("the bank's server did not make the request: \\(String(describing: error), privacy: .public)")
                    return nil
                }
            }
        }

        """
    }

    /// The cards and their entries: what the handler's answers are made of.
    var cardsEntries: String {
        """
        import PassKit

        extension \(names.cardsHandler) {
            /// The cards the app stored after sign-in; none before.
            func storedCards() -> [Card] {
                guard let data = defaults.data(forKey: SharedDefaultsKey.cards) else { return [] }
                return (try? JSONDecoder().decode([Card].self, from: data)) ?? []
            }

            func cards(notIn accounts: Set<String>) -> [Card] {
                storedCards().filter { !accounts.contains($0.identifier) }
            }

            /// The accounts already in Wallet on the iPhone, or on the paired watch.
            func accounts(onWatch: Bool) -> Set<String> {
                Set(passLibrary.passes(of: .secureElement).filter { $0.isRemotePass == onWatch }
                    .compactMap { $0.secureElementPass?.primaryAccountIdentifier })
            }

            func entry(for card: Card) -> PKIssuerProvisioningExtensionPassEntry? {
                guard let art = UIImage(named: "card")?.cgImage,
                      let configuration = PKAddPaymentPassRequestConfiguration(encryptionScheme: .ECC_V2) else {
                    log.error("no card.png in the extension's bundle")
                    return nil
                }
                configuration.primaryAccountIdentifier = card.identifier
                configuration.primaryAccountSuffix = card.suffix
                configuration.cardholderName = card.cardholder
                configuration.localizedDescription = card.title
                configuration.paymentNetwork = PKPaymentNetwork(rawValue: card.network)
                configuration.style = .payment
                return PKIssuerProvisioningExtensionPaymentPassEntry(identifier: card.identifier, title: card.title, art: art,
                                                                     addRequestConfiguration: configuration)
            }
        }

        """
    }
}
