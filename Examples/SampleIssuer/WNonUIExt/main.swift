import WalletExtensionKit

final class WNonUIExtHandler: PKIssuerProvisioningExtensionHandler {
    var calls = 0
    override func status(completion: @escaping (PKIssuerProvisioningExtensionStatus) -> Void) {
        calls += 1
        let status = PKIssuerProvisioningExtensionStatus()
        status.passEntriesAvailable = true
        status.requiresAuthentication = calls > 1
        completion(status)
        completion(status)
    }
    override func passEntries() async -> [PKIssuerProvisioningExtensionPassEntry] {
        let passes = await PKPassLibrary().passes(of: .secureElement)
        print("passes", passes.count)
        return []
    }
}

WalletExtension.main()
