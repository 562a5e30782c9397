import Foundation
import WalletExtensionRuntime
import WalletWire

/// The user's pass library (`PKPassLibrary`), answered by the host's simulated device over the
/// `passLibrary.passes` service.
///
/// As on iOS an extension sees only its own issuer's cards: the secure-element passes on this
/// iPhone and on the paired Apple Watch (tell them apart with ``PKPass/isRemotePass``). Calls
/// are synchronous like PassKit's: the calling thread waits for the host.
///
/// Open, so that unit tests can subclass it and override what they need:
///
/// ```swift
/// class MockPKPassLibrary: PKPassLibrary {
///     var mockPasses: [PKPass] = []
///     override func passes(of passType: PKPassType) -> [PKPass] { mockPasses }
/// }
/// ```
open class PKPassLibrary: NSObject {

    /// A view of the pass library.
    public override init() {}

    /// True: the simulated device always has a pass library.
    open class func isPassLibraryAvailable() -> Bool { true }

    /// The passes on this iPhone (`passes()`): the pass library's local passes.
    open func passes() -> [PKPass] {
        passes(of: .any).filter { !$0.isRemotePass }
    }

    /// The passes of `passType` on this iPhone and on the paired Apple Watch.
    ///
    /// Like PassKit, this never fails: when the host cannot answer (or the process does not
    /// run under wallet-host) it logs the reason to stderr and returns an empty list.
    open func passes(of passType: PKPassType) -> [PKPass] {
        // The simulated device keeps secure-element passes only; barcode passes are never there.
        guard passType != .barcode else { return [] }
        do {
            let passes = try HostServiceCall.send(WireMethod.passLibraryPasses,
                                                  params: PassLibraryPassesParams(passType: "secureElement"),
                                                  expecting: [WireSecureElementPass].self)
            return passes.map(PKSecureElementPass.init(wireValue:))
        } catch {
            Diagnostics.log("PKPassLibrary.passes(of:) returns no passes: \(error)")
            return []
        }
    }

    /// Secure-element passes on the paired Apple Watch (`remoteSecureElementPasses`).
    open var remoteSecureElementPasses: [PKSecureElementPass] {
        passes(of: .secureElement).compactMap { $0.isRemotePass ? $0.secureElementPass : nil }
    }

    /// The payment passes on the paired Apple Watch: the pre-iOS 13.4 name of
    /// ``remoteSecureElementPasses``.
    @available(iOS, deprecated: 13.4, renamed: "remoteSecureElementPasses")
    open func remotePaymentPasses() -> [PKSecureElementPass] {
        remoteSecureElementPasses
    }

    /// True when `pass` (compared with `isEqual`) is in the library.
    open func containsPass(_ pass: PKPass) -> Bool {
        passes(of: pass.passType).contains { $0.isEqual(pass) }
    }

    /// True when no pass on this iPhone or the watch carries `primaryAccountIdentifier`.
    open func canAddSecureElementPass(primaryAccountIdentifier: String) -> Bool {
        !passes(of: .secureElement).contains { $0.secureElementPass?.primaryAccountIdentifier == primaryAccountIdentifier }
    }
}
