import Foundation
import Synchronization
import WalletExtensionKit
@testable import WalletExtensionRuntime

// Principal classes for the tests, registered with the runtime as an extension's main.swift
// registers its principal (``TestPrincipals/all``), and named by module-qualified name
// (WalletExtensionKitTests.CountingHandler) as the host names WNonUIExt.WNonUIExtHandler.

/// Every principal class of the tests, as ``RuntimeHarness`` registers them.
enum TestPrincipals {
    static let all: [WalletExtensionPrincipal] = [
        .handler { CountingHandler() }, .handler { PortedFromPassKitHandler() }, .handler { AsyncOnlyHandler() },
        .handler { EmptyHandler() }, .handler { DoubleCompletingHandler() }, .handler { BlockingHandler() },
        .handler { PassLibraryHandler() }, .handler { PipeBlockingHandler() }, .handler { Namespace.NestedHandler() },
        .authorizationController { ApprovingAuthorizationController() },
    ]
}

/// Counts calls per instance and per process, and answers status with them encoded in the
/// flags: passEntriesAvailable is "this instance has served exactly one call".
final class CountingHandler: PKIssuerProvisioningExtensionHandler {
    static let processCalls = Atomic<Int>(0)
    private var instanceCalls = 0

    override func status(completion: @escaping (PKIssuerProvisioningExtensionStatus) -> Void) {
        instanceCalls += 1
        Self.processCalls.add(1, ordering: .relaxed)
        let status = PKIssuerProvisioningExtensionStatus()
        status.passEntriesAvailable = instanceCalls == 1
        completion(status)
    }
}

/// The override signatures of Apple's Wallet Extensions guide, character for character
/// (completion closures without `@Sendable`), plus one override that adds `@Sendable`:
/// both must compile against the SDK's `@Sendable` base signatures in Swift 6 mode.
final class PortedFromPassKitHandler: PKIssuerProvisioningExtensionHandler {
    override func status(completion: @escaping (PKIssuerProvisioningExtensionStatus) -> Void) {
        let status = PKIssuerProvisioningExtensionStatus()
        status.requiresAuthentication = true
        completion(status)
    }

    override func passEntries(completion: @escaping ([PKIssuerProvisioningExtensionPassEntry]) -> Void) {
        completion([])
    }

    override func remotePassEntries(completion: @escaping @Sendable ([PKIssuerProvisioningExtensionPassEntry]) -> Void) {
        DispatchQueue.global().async { completion([]) }
    }

    override func generateAddPaymentPassRequestForPassEntryWithIdentifier(_ identifier: String, configuration: PKAddPaymentPassRequestConfiguration,
                                                                          certificateChain certificates: [Data], nonce: Data, nonceSignature: Data,
                                                                          completionHandler completion: @escaping (PKAddPaymentPassRequest?) ->
                                                                          Void) {
        let request = PKAddPaymentPassRequest()
        request.wrappedKey = Data([9])
        completion(request)
    }
}

/// Overrides only the async forms.
final class AsyncOnlyHandler: PKIssuerProvisioningExtensionHandler {
    override func status() async -> PKIssuerProvisioningExtensionStatus {
        let status = PKIssuerProvisioningExtensionStatus()
        status.remotePassEntriesAvailable = true
        return status
    }

    override func generateAddPaymentPassRequestForPassEntryWithIdentifier(
        _ identifier: String, configuration: PKAddPaymentPassRequestConfiguration,
        certificateChain certificates: [Data], nonce: Data, nonceSignature: Data
    ) async -> PKAddPaymentPassRequest? {
        guard configuration.encryptionScheme == .ECC_V2 else { return nil }
        let request = PKAddPaymentPassRequest()
        request.activationData = Data(identifier.utf8)
        request.encryptedPassData = nonce
        request.ephemeralPublicKey = Data([0x04] + [UInt8](repeating: 7, count: 64))
        return request
    }
}

/// Overrides nothing: every call must fail with "method not found", not recurse.
final class EmptyHandler: PKIssuerProvisioningExtensionHandler {}

/// Completes status twice; the second completion must be dropped.
final class DoubleCompletingHandler: PKIssuerProvisioningExtensionHandler {
    override func status(completion: @escaping (PKIssuerProvisioningExtensionStatus) -> Void) {
        completion(PKIssuerProvisioningExtensionStatus())
        let second = PKIssuerProvisioningExtensionStatus()
        second.requiresAuthentication = true
        completion(second)
    }
}

/// Blocks its thread until released, then completes: the reader must stay responsive.
final class BlockingHandler: PKIssuerProvisioningExtensionHandler {
    static let release = DispatchSemaphore(value: 0)

    override func status(completion: @escaping (PKIssuerProvisioningExtensionStatus) -> Void) {
        Self.release.wait()
        completion(PKIssuerProvisioningExtensionStatus())
    }

    override func passEntries(completion: @escaping ([PKIssuerProvisioningExtensionPassEntry]) -> Void) {
        completion([])
    }
}

/// Reads the pass library synchronously, as PassKit code does.
final class PassLibraryHandler: PKIssuerProvisioningExtensionHandler {
    let passLibrary = PKPassLibrary()

    override func status(completion: @escaping (PKIssuerProvisioningExtensionStatus) -> Void) {
        let passes = passLibrary.passes(of: .secureElement)
        let status = PKIssuerProvisioningExtensionStatus()
        status.passEntriesAvailable = passes.contains { !$0.isRemotePass }
        status.remotePassEntriesAvailable = passes.contains {
            $0.isRemotePass && $0.deviceName.localizedCaseInsensitiveContains("apple watch")
        }
        status.requiresAuthentication = passes.first?.secureElementPass?.primaryAccountNumberSuffix == "4242"
        completion(status)
    }
}

/// A UI principal written as for iOS: `UIViewController` plus the providing protocol.
final class ApprovingAuthorizationController: UIViewController, PKIssuerProvisioningExtensionAuthorizationProviding {
    var completionHandler: ((PKIssuerProvisioningExtensionAuthorizationResult) -> Void)?

    override func viewDidLoad() {
        super.viewDidLoad()
        // Completes later, from another thread, after viewDidLoad has returned.
        let completion = completionHandler
        let box = UncheckedBox(completion)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
            box.value?(.authorized)
        }
    }
}

/// A class nested in another type: found by its last name component too.
enum Namespace {
    final class NestedHandler: PKIssuerProvisioningExtensionHandler {
        override func status(completion: @escaping (PKIssuerProvisioningExtensionStatus) -> Void) {
            completion(PKIssuerProvisioningExtensionStatus())
        }
    }
}

/// Lets a test hand a non-Sendable closure to another thread on purpose.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
