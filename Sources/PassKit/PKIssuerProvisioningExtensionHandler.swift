import Foundation
import WalletWire

/// The principal class of a non-UI Wallet extension (PassKit's class of the same name).
///
/// Subclass it and override, for each call, either the completion form or the async form:
///
/// ```swift
/// final class WNonUIExtHandler: PKIssuerProvisioningExtensionHandler {
///     override func status(completion: @escaping (PKIssuerProvisioningExtensionStatus) -> Void) {
///         let status = PKIssuerProvisioningExtensionStatus()
///         status.passEntriesAvailable = true
///         completion(status)
///     }
///
///     override func passEntries() async -> [PKIssuerProvisioningExtensionPassEntry] { ... }
/// }
/// ```
///
/// As on iOS, the runtime creates a **new instance for every call** (with the factory given
/// to `WalletExtension.main`, normally `{ WNonUIExtHandler() }`): stored properties start
/// fresh each time, globals persist for the life of the process. The runtime keeps the
/// instance alive until it has completed its call, so a `[weak self]` completion on another
/// queue still finds it. Calls run concurrently, each on its own thread, so a handler may
/// block (host services such as ``PKPassLibrary/passes(of:)`` are synchronous). Each
/// completion handler may be called once; a second call is dropped and logged. A call whose
/// neither form is overridden fails with "method not found".
///
/// A subclass may declare its own initializers (for example to inject a mock
/// ``PKPassLibrary`` in unit tests), as with PassKit's `NSObject` subclass.
///
/// The base completion forms take `@Sendable` closures so the SDK can complete them from any
/// thread; overrides written for PassKit, without `@Sendable`, compile unchanged.
open class PKIssuerProvisioningExtensionHandler: NSObject {

    /// Links this instance to the call it serves; see ``HandlerInvocation``.
    package let invocation = HandlerInvocation()

    /// Creates a handler.
    public override init() {}

    // MARK: status

    /// Reports whether Wallet should list the issuer, and whether it must authenticate first.
    /// Wallet allows 100 ms, process launch included when the extension is cold.
    /// - Parameter completion: Call it once with the status.
    open func status(completion: @escaping @Sendable (PKIssuerProvisioningExtensionStatus) -> Void) {
        invocation.runAsyncForm(WireMethods.status, of: self, completion: completion) { await $0.status() }
    }

    /// The async form of ``status(completion:)``; override either one.
    open func status() async -> PKIssuerProvisioningExtensionStatus {
        if invocation.neitherFormIsOverridden(WireMethods.status) { return PKIssuerProvisioningExtensionStatus() }
        return await withCheckedContinuation { continuation in
            status { continuation.resume(returning: $0) }
        }
    }

    // MARK: passEntries

    /// The cards the user can add to this iPhone, already in the pass library excluded.
    /// Wallet allows 20 s.
    /// - Parameter completion: Call it once with the entries.
    open func passEntries(completion: @escaping @Sendable ([PKIssuerProvisioningExtensionPassEntry]) -> Void) {
        invocation.runAsyncForm(WireMethods.passEntries, of: self, completion: completion) { await $0.passEntries() }
    }

    /// The async form of ``passEntries(completion:)``; override either one.
    open func passEntries() async -> [PKIssuerProvisioningExtensionPassEntry] {
        if invocation.neitherFormIsOverridden(WireMethods.passEntries) { return [] }
        return await withCheckedContinuation { continuation in
            passEntries { continuation.resume(returning: $0) }
        }
    }

    // MARK: remotePassEntries

    /// The cards the user can add to the paired Apple Watch, already on the watch excluded.
    /// Wallet allows 20 s.
    /// - Parameter completion: Call it once with the entries.
    open func remotePassEntries(completion: @escaping @Sendable ([PKIssuerProvisioningExtensionPassEntry]) -> Void) {
        invocation.runAsyncForm(WireMethods.remotePassEntries, of: self, completion: completion) { await $0.remotePassEntries() }
    }

    /// The async form of ``remotePassEntries(completion:)``; override either one.
    open func remotePassEntries() async -> [PKIssuerProvisioningExtensionPassEntry] {
        if invocation.neitherFormIsOverridden(WireMethods.remotePassEntries) { return [] }
        return await withCheckedContinuation { continuation in
            remotePassEntries { continuation.resume(returning: $0) }
        }
    }

    // MARK: generateAddPaymentPassRequest

    /// Makes the encrypted add request for the card the user chose. Wallet allows 20 s and
    /// ignores a later completion.
    /// - Parameters:
    ///   - identifier: The chosen entry's identifier.
    ///   - configuration: The chosen entry's configuration.
    ///   - certificates: DER certificates, leaf first.
    ///   - nonce: Wallet's one-time nonce, to include in the encrypted data.
    ///   - nonceSignature: The device's signature of the nonce, to include as well.
    ///   - completion: Call it once with the request, or `nil` to not add the card.
    open func generateAddPaymentPassRequestForPassEntryWithIdentifier(
        _ identifier: String, configuration: PKAddPaymentPassRequestConfiguration,
        certificateChain certificates: [Data], nonce: Data, nonceSignature: Data,
        completionHandler completion: @escaping @Sendable (PKAddPaymentPassRequest?) -> Void
    ) {
        invocation.runAsyncForm(
            WireMethods.generateAddPaymentPassRequest,
            swiftForms: "generateAddPaymentPassRequestForPassEntryWithIdentifier(...completionHandler:) nor its async form",
            of: self, completion: completion) { handler in
            await handler.generateAddPaymentPassRequestForPassEntryWithIdentifier(
                identifier, configuration: configuration, certificateChain: certificates,
                nonce: nonce, nonceSignature: nonceSignature)
        }
    }

    /// The async form of
    /// ``generateAddPaymentPassRequestForPassEntryWithIdentifier(_:configuration:certificateChain:nonce:nonceSignature:completionHandler:)``;
    /// override either one.
    open func generateAddPaymentPassRequestForPassEntryWithIdentifier(
        _ identifier: String, configuration: PKAddPaymentPassRequestConfiguration,
        certificateChain certificates: [Data], nonce: Data, nonceSignature: Data
    ) async -> PKAddPaymentPassRequest? {
        if invocation.neitherFormIsOverridden(WireMethods.generateAddPaymentPassRequest) { return nil }
        return await withCheckedContinuation { continuation in
            generateAddPaymentPassRequestForPassEntryWithIdentifier(
                identifier, configuration: configuration, certificateChain: certificates,
                nonce: nonce, nonceSignature: nonceSignature
            ) { continuation.resume(returning: $0) }
        }
    }
}
