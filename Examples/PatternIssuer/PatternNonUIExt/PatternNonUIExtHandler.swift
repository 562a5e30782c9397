import os.log
import PassKit

/// A non-UI extension that asks the issuer's backend for the cards (URLSession from a
/// Foundation-only file) and for the add request, with card art drawn in code.
final class PatternNonUIExtHandler: PKIssuerProvisioningExtensionHandler {
    private let log = OSLog(subsystem: "com.example.patterns", category: "nonui")

    private var backend: IssuerBackendClient? {
        WalletExtension.backendURL.map { IssuerBackendClient(baseURL: $0) }
    }

    override func status(completion: @escaping (PKIssuerProvisioningExtensionStatus) -> Void) {
        let status = PKIssuerProvisioningExtensionStatus()
        status.requiresAuthentication = !SessionToken.isStored
        status.passEntriesAvailable = PKAddPaymentPassViewController.canAddPaymentPass()
        // The deprecated name older issuers still call.
        status.remotePassEntriesAvailable = !PKPassLibrary().remotePaymentPasses().isEmpty
        completion(status)
    }

    override func passEntries(completion: @escaping ([PKIssuerProvisioningExtensionPassEntry]) -> Void) {
        guard let backend else {
            os_log("no IssuerBackendURL in Info.plist", log: log, type: .error)
            completion([])
            return
        }
        backend.cards { result in
            switch result {
            case .success(let cards):
                os_log("backend listed %d cards", log: self.log, type: .info, cards.count)
                completion(cards.compactMap(Self.entry(for:)))
            case .failure(let error):
                os_log("backend failed: %{public}@", log: self.log, type: .error, String(describing: error))
                completion([])
            }
        }
    }

    override func remotePassEntries(completion: @escaping ([PKIssuerProvisioningExtensionPassEntry]) -> Void) {
        passEntries(completion: completion)
    }

    override func generateAddPaymentPassRequestForPassEntryWithIdentifier(
        _ identifier: String, configuration: PKAddPaymentPassRequestConfiguration, certificateChain certificates: [Data],
        nonce: Data, nonceSignature: Data
    ) async -> PKAddPaymentPassRequest? {
        guard let backend else { return nil }
        do {
            let fields = try await backend.addRequest(cardID: identifier, nonce: nonce, nonceSignature: nonceSignature,
                                                      certificates: certificates)
            let request = PKAddPaymentPassRequest()
            request.activationData = Data(base64Encoded: fields.activationData)
            request.encryptedPassData = Data(base64Encoded: fields.encryptedPassData)
            request.ephemeralPublicKey = Data(base64Encoded: fields.ephemeralPublicKey)
            return request
        } catch {
            os_log("provision failed: %{public}@", log: log, type: .error, String(describing: error))
            return nil
        }
    }

    private static func entry(for card: BackendCard) -> PKIssuerProvisioningExtensionPaymentPassEntry? {
        guard let configuration = PKAddPaymentPassRequestConfiguration(encryptionScheme: .ECC_V2),
              let art = CardArtRenderer.art(color: card.id.hasSuffix("1") ? .systemIndigo : .systemTeal) else { return nil }
        configuration.cardholderName = card.cardholder
        configuration.primaryAccountSuffix = card.suffix
        configuration.primaryAccountIdentifier = card.id
        configuration.paymentNetwork = .visa
        configuration.localizedDescription = card.title
        configuration.style = .payment
        return PKIssuerProvisioningExtensionPaymentPassEntry(identifier: card.id, title: card.title, art: art,
                                                             addRequestConfiguration: configuration)
    }
}
