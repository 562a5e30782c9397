// WNonUIExtHandler.swift
//
// The non-UI extension's principal class, written as for iOS. Its collaborators are
// injected so that unit tests can hand it mocks, as the guide's testing section does.

import PassKit

class WNonUIExtHandler: PKIssuerProvisioningExtensionHandler {
    let passLibrary: PKPassLibrary
    let appGroupSharedDefaults: UserDefaults
    let watchSession: WatchConnectivitySession

    init(passLibrary: PKPassLibrary, sharedDefaults: UserDefaults, watchSession: WatchConnectivitySession) {
        self.passLibrary = passLibrary
        self.appGroupSharedDefaults = sharedDefaults
        self.watchSession = watchSession
    }

    override convenience init() {
        self.init(passLibrary: PKPassLibrary(), sharedDefaults: GuideNonUIExt.appGroupSharedDefaults,
                  watchSession: WatchConnectivitySession())
    }

    override func status(completion: @escaping (PKIssuerProvisioningExtensionStatus) -> Void) {
        let status = PKIssuerProvisioningExtensionStatus()
        let credentials = cachedCredentials()
        let (onPhone, onWatch) = accountsInLibrary()
        status.passEntriesAvailable = credentials.keys.contains { !onPhone.contains($0) }
        status.remotePassEntriesAvailable = watchSession.isPaired && credentials.keys.contains { !onWatch.contains($0) }
        status.requiresAuthentication = appGroupSharedDefaults.bool(forKey: "ShouldRequireAuthenticationForAppleWallet")
        completion(status)
    }

    override func passEntries(completion: @escaping ([PKIssuerProvisioningExtensionPassEntry]) -> Void) {
        completion(entries(skipping: accountsInLibrary().onPhone))
    }

    override func remotePassEntries(completion: @escaping ([PKIssuerProvisioningExtensionPassEntry]) -> Void) {
        completion(entries(skipping: accountsInLibrary().onWatch))
    }

    override func generateAddPaymentPassRequestForPassEntryWithIdentifier(
        _ identifier: String, configuration: PKAddPaymentPassRequestConfiguration,
        certificateChain certificates: [Data], nonce: Data, nonceSignature: Data,
        completionHandler completion: @escaping (PKAddPaymentPassRequest?) -> Void
    ) {
        let request = PKAddPaymentPassRequest()
        let passData = PassResource.requestPaymentPassData(configuration, certificateChain: certificates,
                                                           nonce: nonce, nonceSignature: nonceSignature)
        request.activationData = passData.activationData
        request.encryptedPassData = passData.encryptedPassData
        request.ephemeralPublicKey = passData.ephemeralPublicKey
        request.wrappedKey = passData.wrappedKey
        completion(request)
    }

    // MARK: - Private

    private func cachedCredentials() -> [String: ProvisioningCredential] {
        guard let data = appGroupSharedDefaults.data(forKey: "PaymentPassCredentials") else {
            log.warning("no cached credentials; has the user logged in?")
            return [:]
        }
        guard let decoded = try? JSONDecoder().decode([String: ProvisioningCredential].self, from: data) else {
            log.error("cached credentials could not be decoded")
            return [:]
        }
        return decoded
    }

    private func accountsInLibrary() -> (onPhone: Set<String>, onWatch: Set<String>) {
        var onPhone: Set<String> = []
        var onWatch: Set<String> = []
        for pass in passLibrary.passes(of: .secureElement) {
            guard let identifier = pass.secureElementPass?.primaryAccountIdentifier else { continue }
            if !pass.isRemotePass {
                onPhone.insert(identifier)
            } else if pass.deviceName.localizedCaseInsensitiveContains("Apple Watch") {
                onWatch.insert(identifier)
            }
        }
        return (onPhone, onWatch)
    }

    private func entries(skipping accounts: Set<String>) -> [PKIssuerProvisioningExtensionPassEntry] {
        cachedCredentials().filter { !accounts.contains($0.key) }.sorted { $0.key < $1.key }.map { _, credential in
            paymentPassEntry(for: credential)
        }
    }

    private func paymentPassEntry(for credential: ProvisioningCredential) -> PKIssuerProvisioningExtensionPaymentPassEntry {
        let requestConfig = PKAddPaymentPassRequestConfiguration(encryptionScheme: .ECC_V2)!
        requestConfig.primaryAccountIdentifier = credential.primaryAccountIdentifier
        requestConfig.paymentNetwork = .masterCard
        requestConfig.cardholderName = credential.cardholderName
        requestConfig.localizedDescription = credential.localizedDescription
        requestConfig.primaryAccountSuffix = credential.primaryAccountSuffix
        requestConfig.style = .payment
        requestConfig.cardDetails.append(PKLabeledValue(label: "expiration", value: credential.expiration))
        let image = UIImage(named: credential.assetName) ?? UIImage(systemName: "creditcard.and.123")!
        return PKIssuerProvisioningExtensionPaymentPassEntry(identifier: credential.primaryAccountIdentifier,
                                                             title: credential.label, art: entryArt(image: image),
                                                             addRequestConfiguration: requestConfig)!
    }

    private func entryArt(image: UIImage) -> CGImage {
        let ciImage = CIImage(image: image)
        let ciContext = CIContext(options: nil)
        return ciContext.createCGImage(ciImage!, from: ciImage!.extent)!
    }
}
