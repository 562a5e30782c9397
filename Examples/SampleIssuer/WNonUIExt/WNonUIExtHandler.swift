import os
import PassKit

/// The extension's log, under the extension's bundle identifier (from its Info.plist).
let log = Logger(subsystem: Bundle.main.bundleIdentifier ?? "WNonUIExt", category: "provisioning")

/// The sample issuer's non-UI extension: lists the user's cards that are not yet in Wallet
/// and makes the add request for the card the user picks.
///
/// Plain iOS code: a fresh instance serves each call, the cards come from the App Group
/// defaults the app wrote at login, and the pass library tells which cards each device
/// already has.
final class WNonUIExtHandler: PKIssuerProvisioningExtensionHandler {
    let passLibrary = PKPassLibrary()
    let watchSession = WatchConnectivitySession()

    override func status(completion: @escaping (PKIssuerProvisioningExtensionStatus) -> Void) {
        let credentials = cachedProvisioningCredentials()
        let library = PassLibrarySnapshot(passLibrary.passes(of: .secureElement))
        let status = PKIssuerProvisioningExtensionStatus()
        status.passEntriesAvailable = credentials.keys.contains { !library.iPhoneAccounts.contains($0) }
        status.remotePassEntriesAvailable = watchSession.isPaired
            && credentials.keys.contains { !library.watchAccounts.contains($0) }
        status.requiresAuthentication = appGroupSharedDefaults.bool(forKey: SharedDefaultsKey.requiresAuthentication)
        completion(status)
    }

    override func passEntries(completion: @escaping ([PKIssuerProvisioningExtensionPassEntry]) -> Void) {
        let library = PassLibrarySnapshot(passLibrary.passes(of: .secureElement))
        completion(entries(excluding: library.iPhoneAccounts))
    }

    override func remotePassEntries(completion: @escaping ([PKIssuerProvisioningExtensionPassEntry]) -> Void) {
        let library = PassLibrarySnapshot(passLibrary.passes(of: .secureElement))
        completion(entries(excluding: library.watchAccounts))
    }

    override func generateAddPaymentPassRequestForPassEntryWithIdentifier(
        _ identifier: String, configuration: PKAddPaymentPassRequestConfiguration,
        certificateChain certificates: [Data], nonce: Data, nonceSignature: Data,
        completionHandler completion: @escaping (PKAddPaymentPassRequest?) -> Void
    ) {
        guard let credential = cachedProvisioningCredentials()[identifier] else {
            log.error("no card \(identifier, privacy: .public); not adding it")
            completion(nil)
            return
        }
        completion(SampleIssuerBackend.addPaymentPassRequest(
            for: credential, certificateChain: certificates, nonce: nonce, nonceSignature: nonceSignature))
    }

    // MARK: - Private

    /// The cards the user has, as the containing app cached them at login; empty before the
    /// first login.
    private func cachedProvisioningCredentials() -> [String: ProvisioningCredential] {
        guard let data = appGroupSharedDefaults.data(forKey: SharedDefaultsKey.paymentPassCredentials) else {
            log.warning("no \(SharedDefaultsKey.paymentPassCredentials, privacy: .public) in the App Group; has the user logged in to the app?")
            return [:]
        }
        do {
            return try JSONDecoder().decode([String: ProvisioningCredential].self, from: data)
        } catch {
            log.error("\(SharedDefaultsKey.paymentPassCredentials, privacy: .public) could not be decoded: \(error, privacy: .public)")
            return [:]
        }
    }

    /// Entries for the cached cards whose account is not in `accountsAlreadyAdded`, in a
    /// stable order.
    private func entries(excluding accountsAlreadyAdded: Set<String>) -> [PKIssuerProvisioningExtensionPassEntry] {
        cachedProvisioningCredentials()
            .filter { !accountsAlreadyAdded.contains($0.key) }
            .sorted { $0.key < $1.key }
            .compactMap { paymentPassEntry(for: $0.value) }
    }

    private func paymentPassEntry(for credential: ProvisioningCredential) -> PKIssuerProvisioningExtensionPaymentPassEntry? {
        guard let image = UIImage(named: credential.assetName) ?? UIImage(named: "card-graphite") else {
            log.error("no card art \(credential.assetName, privacy: .public).png in the extension bundle")
            return nil
        }
        let scheme = PKEncryptionScheme(rawValue: credential.encryptionScheme)
        guard let configuration = PKAddPaymentPassRequestConfiguration(encryptionScheme: scheme) else {
            log.error("card \(credential.primaryAccountIdentifier, privacy: .public) has unknown scheme \(credential.encryptionScheme, privacy: .public)")
            return nil
        }
        configuration.primaryAccountIdentifier = credential.primaryAccountIdentifier
        configuration.paymentNetwork = PKPaymentNetwork(rawValue: credential.paymentNetwork)
        configuration.cardholderName = credential.cardholderName
        configuration.localizedDescription = credential.localizedDescription
        configuration.primaryAccountSuffix = credential.primaryAccountSuffix
        configuration.style = .payment
        configuration.cardDetails.append(PKLabeledValue(label: "expiration", value: credential.expiration))
        return PKIssuerProvisioningExtensionPaymentPassEntry(
            identifier: credential.primaryAccountIdentifier, title: credential.label, art: entryArt(image: image),
            addRequestConfiguration: configuration)
    }

    /// The card art as Wallet takes it.
    private func entryArt(image: UIImage) -> CGImage {
        let ciImage = CIImage(image: image)!
        return CIContext(options: nil).createCGImage(ciImage, from: ciImage.extent)!
    }
}

/// Which accounts each device already holds, from one read of the pass library.
struct PassLibrarySnapshot {
    /// Accounts with a pass on this iPhone.
    var iPhoneAccounts: Set<String> = []
    /// Accounts with a pass on the paired Apple Watch.
    var watchAccounts: Set<String> = []

    init(_ passes: [PKPass]) {
        for pass in passes {
            guard let account = pass.secureElementPass?.primaryAccountIdentifier else { continue }
            if !pass.isRemotePass {
                iPhoneAccounts.insert(account)
            } else if pass.deviceName.localizedCaseInsensitiveContains("Apple Watch") {
                watchAccounts.insert(account)
            }
        }
    }
}
