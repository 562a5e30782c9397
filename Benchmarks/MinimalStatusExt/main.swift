// The smallest SDK extension: a status handler that answers constants. The benchmarks use it
// to measure the host and the SDK themselves, without an issuer's own work.
import WalletExtensionKit

final class MinimalStatusHandler: PKIssuerProvisioningExtensionHandler {
    override func status(completion: @escaping (PKIssuerProvisioningExtensionStatus) -> Void) {
        let status = PKIssuerProvisioningExtensionStatus()
        status.passEntriesAvailable = true
        completion(status)
    }
}

WalletExtension.main { MinimalStatusHandler() }
