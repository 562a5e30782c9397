import ExampleIssuerBackend
@_spi(Testing) import WalletExtensionKit
import FoundationEssentials

/// The helper's principal class, `TestHelperExt.TestHelperHandler`: normal answers, or the
/// misbehaviour the `TestHelperMode` file names (read again on every call).
final class TestHelperHandler: PKIssuerProvisioningExtensionHandler {
    /// Calls made on this instance. The runtime builds a fresh instance per call, so the
    /// entries always report "1"; anything else means an instance was reused.
    private var instanceCalls = 0

    override func status(completion: @escaping (PKIssuerProvisioningExtensionStatus) -> Void) {
        guard let mode = beginCall() else { return }
        switch mode {
        case .slowStatus(let milliseconds):
            Misbehaviour.sleep(milliseconds: milliseconds)
        case .crashSignal:
            Misbehaviour.crashWithSegmentationFault()
        case .crashFatal:
            fatalError("TestHelperExt: crash-fatal mode")
        case .allocateMegabytes(let megabytes):
            Misbehaviour.allocate(megabytes: megabytes)
        case .allocateSmallMegabytes(let megabytes):
            Misbehaviour.allocate(megabytes: megabytes, blockSize: 64 * 1024)
        case .wrongShape:
            WalletExtensionTesting.sendResponse(
                for: self,
                resultJSON: #"{"passEntriesAvailable":"yes","remotePassEntriesAvailable":1,"requiresAuthentication":null}"#)
            return
        default:
            break
        }
        let status = PKIssuerProvisioningExtensionStatus()
        status.passEntriesAvailable = true
        status.remotePassEntriesAvailable = true
        // TestHelper.app has no UI extension, so its status never asks for one.
        status.requiresAuthentication = false
        finish(mode) { completion(status) }
    }

    override func passEntries(completion: @escaping ([PKIssuerProvisioningExtensionPassEntry]) -> Void) {
        entries(completion: completion)
    }

    override func remotePassEntries(completion: @escaping ([PKIssuerProvisioningExtensionPassEntry]) -> Void) {
        entries(completion: completion)
    }

    override func generateAddPaymentPassRequestForPassEntryWithIdentifier(
        _ identifier: String, configuration: PKAddPaymentPassRequestConfiguration,
        certificateChain certificates: [Data], nonce: Data, nonceSignature: Data,
        completionHandler completion: @escaping (PKAddPaymentPassRequest?) -> Void
    ) {
        guard let mode = beginCall() else { return }
        if case .allocateOnRequestMegabytes(let megabytes) = mode {
            Misbehaviour.allocate(megabytes: megabytes)
        }
        if mode == .nilRequest {
            finish(mode) { completion(nil) }
            return
        }
        let request = PKAddPaymentPassRequest()
        request.activationData = Data("helper-activation-\(identifier)".utf8)
        // Encrypted for real, as an issuer's server would (ECC_V2), for the leaf Wallet sent.
        let payload = ECCV2Encryption.Payload(primaryAccountNumber: "4111111111080001", expiration: "12/39", name: "Test Helper",
                                              nonce: nonce, nonceSignature: nonceSignature)
        let sealed = certificates.first.flatMap { try? ECCV2Encryption.seal(payload, leafCertificate: $0) }
        request.encryptedPassData = sealed?.encryptedPassData ?? Data("helper-pass-data-\(identifier)-".utf8) + nonce + nonceSignature
        if mode != .badRequest {
            // An uncompressed P-256 point: 0x04, then X and Y (32 bytes each).
            request.ephemeralPublicKey = sealed?.ephemeralPublicKey ?? Data([0x04] + (1...64).map { UInt8($0) })
        }
        finish(mode) { completion(request) }
    }

    // MARK: - Shared steps

    private func entries(completion: @escaping ([PKIssuerProvisioningExtensionPassEntry]) -> Void) {
        guard let mode = beginCall() else { return }
        if case .slowEntries(let milliseconds) = mode {
            Misbehaviour.sleep(milliseconds: milliseconds)
        }
        let configuration = PKAddPaymentPassRequestConfiguration(encryptionScheme: .ECC_V2)!
        configuration.cardholderName = "Test Helper"
        configuration.primaryAccountSuffix = "0001"
        configuration.primaryAccountIdentifier = "HELPER-0001"
        configuration.paymentNetwork = .visa
        configuration.cardDetails = [
            PKLabeledValue(label: "instanceCalls", value: String(instanceCalls)),
            PKLabeledValue(label: "globalCalls", value: String(Misbehaviour.globalCalls.load(ordering: .relaxed))),
        ]
        configuration.cardDetails += keychainDetails(mode)
        let entry = PKIssuerProvisioningExtensionPaymentPassEntry(
            identifier: "helper-card-0001", title: mode == .hostileTitle ? HelperMode.hostileCardTitle : "Test Helper Card",
            art: HelperArt.plainCard,
            addRequestConfiguration: configuration)!
        finish(mode) { completion([entry]) }
    }

    /// What the keychain modes did, as card details: `keychainStatus` (the `OSStatus`) and,
    /// after a read that found the token, `keychainToken`.
    private func keychainDetails(_ mode: HelperMode) -> [PKLabeledValue] {
        switch mode {
        case .keychainWrite(let token, let accessGroup):
            return [PKLabeledValue(label: "keychainStatus", value: String(HelperKeychain.save(token, accessGroup: accessGroup)))]
        case .keychainRead:
            let (status, token) = HelperKeychain.load()
            return [PKLabeledValue(label: "keychainStatus", value: String(status))]
                + (token.map { [PKLabeledValue(label: "keychainToken", value: $0)] } ?? [])
        case .passLibrary:
            let accounts = PKPassLibrary().passes(of: .secureElement).compactMap { $0.secureElementPass?.primaryAccountIdentifier }
            return [PKLabeledValue(label: "passes", value: accounts.sorted().joined(separator: ","))]
        default:
            return []
        }
    }

    /// Counts the call, reads the mode and applies what every call does in that mode.
    /// - Returns: The mode, or nil when the call must never be answered.
    private func beginCall() -> HelperMode? {
        instanceCalls += 1
        Misbehaviour.globalCalls.add(1, ordering: .relaxed)
        let mode = HelperMode.current()
        Misbehaviour.ignoreExitRequests(mode == .ignoreExit)
        switch mode {
        case .hang:
            return nil
        case .garbageInstead:
            Misbehaviour.writeGarbageLine()
            return nil
        case .forkGrandchild:
            Misbehaviour.forkGrandchildAndExit()
        case .garbageLine:
            Misbehaviour.writeGarbageLine()
        case .oversizedLine:
            Misbehaviour.writeOversizedLine()
        case .stdoutNoise:
            Misbehaviour.makeNoise()
        case .leakKilobytes(let kilobytes):
            MemoryModes.leak(kilobytes: kilobytes)
        case .churnKilobytes(let kilobytes):
            MemoryModes.churn(kilobytes: kilobytes)
        default:
            break
        }
        return mode
    }

    /// Completes the call the way the mode wants: once, twice, or late despite cancellation.
    private func finish(_ mode: HelperMode, complete: () -> Void) {
        switch mode {
        case .doubleComplete:
            WalletExtensionTesting.disableSingleShotGuard(for: self)
            complete()
            complete()
        case .lateComplete(let milliseconds):
            WalletExtensionTesting.disableSingleShotGuard(for: self)
            Misbehaviour.sleep(milliseconds: milliseconds)
            complete()
        default:
            complete()
        }
    }
}
